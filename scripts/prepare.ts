// Runs on `npm install`: builds what the project needs that is not committed — the embedded model
// (converted from the npm package), same-origin copies of ONNX Runtime's wasm files, and the library build.
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' })
  if (result.status !== 0) throw new Error(`prepare: ${command} ${args.join(' ')} failed (exit ${result.status})`)
}

function copyOrtWasm(): void {
  const from = join(root, 'node_modules/onnxruntime-web/dist')
  const to = join(root, 'public/ort')
  mkdirSync(to, { recursive: true })
  for (const file of readdirSync(from)) {
    if (/^ort-wasm.*\.(wasm|mjs)$/.test(file)) cpSync(join(from, file), join(to, file))
  }
}

if (existsSync(join(root, 'scripts/convert-model.ts'))) run('npx', ['tsx', 'scripts/convert-model.ts'])
copyOrtWasm()
if (existsSync(join(root, 'src/node.ts')) && existsSync(join(root, 'tsconfig.build.json'))) run('npm', ['run', 'build'])
