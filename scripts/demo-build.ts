// The demo site build shared by `npm run demo`, the browser tests and the browser benchmark.
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'vite'
import { setUp } from './setup'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** Where `vite build` writes the demo: index.html, its bundles, and public/ (model, ONNX Runtime files). */
export const demoOutDir = join(root, 'dist-demo')

export async function buildDemo(): Promise<void> {
  // The model and ONNX Runtime files the demo serves from public/: converted or copied when missing or stale.
  setUp()
  await build({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'warn' })
}
