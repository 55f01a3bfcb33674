// `npm test`: makes sure a Chromium and the embedded model exist, then runs every vitest project.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { findChromium } from './find-chromium'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): number {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env })
  return result.status ?? 1
}

function canInstallWithApt(): boolean {
  return process.getuid?.() === 0 && existsSync('/etc/debian_version') && run('sh', ['-c', 'command -v apt-get >/dev/null']) === 0
}

function ensureChromium(): string {
  const found = findChromium()
  if (found) return found
  if (process.env.CHROME_PATH) {
    console.error(`npm test: CHROME_PATH=${process.env.CHROME_PATH} is not an executable file; point it at Chromium or Chrome.`)
    process.exit(1)
  }
  if (canInstallWithApt()) {
    console.log('npm test: no Chromium found; installing Debian chromium with apt-get')
    if (run('apt-get', ['update']) === 0 && run('apt-get', ['install', '-y', 'chromium']) === 0) {
      const installed = findChromium()
      if (installed) return installed
    }
  }
  console.error('npm test: no Chromium found; install Chromium or Chrome (Debian: apt-get install -y chromium) or set CHROME_PATH to its binary.')
  process.exit(1)
}

function ensureModel(): void {
  if (existsSync(join(root, 'public/models/use-lite/onnx/model.onnx')) && existsSync(join(root, 'public/ort'))) return
  console.log('npm test: the embedded model or the ONNX Runtime wasm files are missing; running prepare')
  if (run('npx', ['tsx', 'scripts/prepare.ts']) !== 0) process.exit(1)
}

const chromePath = ensureChromium()
ensureModel()
process.exit(run('npx', ['vitest', 'run', ...process.argv.slice(2)], { ...process.env, CHROME_PATH: chromePath }))
