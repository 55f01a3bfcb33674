// Builds the demo once and serves dist-demo/ on a free localhost port for every e2e test file.
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'vite'
import type { TestProject } from 'vitest/node'
import { startStaticServer } from '../scripts/static-server'

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string
  }
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  await build({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'warn' })
  const server = await startStaticServer({ root: join(root, 'dist-demo'), port: 0 })
  project.provide('baseUrl', server.url)
  return () => server.close()
}
