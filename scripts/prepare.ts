// Runs on `npm install`: builds what the project needs that is not committed — the embedded model
// (converted from an npm package), same-origin copies of ONNX Runtime's wasm files, and the library build
// (so plain Node can `import { createMemory } from 'sift-memory/node'` right after install).
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

function run(command: string, args: string[]): void {
  console.log(`prepare: ${command} ${args.join(' ')}`)
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' })
  if (result.status !== 0) throw new Error(`prepare: ${command} ${args.join(' ')} failed (exit ${result.status})`)
}

/** The onnxruntime-web that transformers.js imports: its own nested copy if npm gave it one, else the hoisted one. */
function ortDistFolder(): string {
  const nested = join(root, 'node_modules/@huggingface/transformers/node_modules/onnxruntime-web/dist')
  return existsSync(nested) ? nested : join(root, 'node_modules/onnxruntime-web/dist')
}

/** ONNX Runtime fetches its wasm binary and its loader at run time; served from public/ort/ they stay on the app's origin. */
function copyOrtWasm(): void {
  const from = ortDistFolder()
  const to = join(root, 'public/ort')
  mkdirSync(to, { recursive: true })
  const files = readdirSync(from).filter((file) => /^ort-wasm.*\.(wasm|mjs)$/.test(file))
  if (files.length === 0) throw new Error(`prepare: no ort-wasm*.wasm files in ${from}; is onnxruntime-web installed?`)
  for (const file of files) cpSync(join(from, file), join(to, file))
  console.log(`prepare: copied ${files.length} ONNX Runtime files to public/ort/`)
}

if (existsSync(join(root, 'scripts/convert-model.ts'))) run('npx', ['tsx', 'scripts/convert-model.ts'])
copyOrtWasm()
if (existsSync(join(root, 'src/index.ts')) && existsSync(join(root, 'src/node.ts'))) run('npm', ['run', 'build'])
