// `npm run demo [-- --port N]`: builds the demo page and serves it on localhost, offline.
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { build } from 'vite'
import { startStaticServer } from './static-server'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const { values } = parseArgs({ options: { port: { type: 'string', default: '5173' } } })
const port = Number(values.port)
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`demo: --port must be an integer between 0 and 65535, got ${values.port}`)
  process.exit(1)
}

await build({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'warn' })
const server = await startStaticServer({ root: join(root, 'dist-demo'), port })
console.log(`Sift demo: ${server.url}/  (Ctrl+C to stop)`)
