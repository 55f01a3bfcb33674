// `npm pack` / `npm publish`: the packed files are built from the sources of this checkout, never left over from
// an earlier build: the model (setup) and the library (`vite build --mode lib`, which empties dist/ first).
import { spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { setUp } from './setup'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

setUp()
const built = spawnSync('npx', ['vite', 'build', '--mode', 'lib', '--logLevel', 'warn'], {
  cwd: root,
  stdio: [0, 2, 2],
})
if (built.status !== 0) throw new Error(`prepack: vite build --mode lib failed (exit ${built.status})`)
