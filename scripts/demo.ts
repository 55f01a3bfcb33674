// `npm run demo [-- --port N]`: builds the demo page and serves it on localhost, offline.
import { parseArgs } from 'node:util'
import { buildDemo, demoOutDir } from './demo-build'
import { startStaticServer } from './static-server'

const { values } = parseArgs({ options: { port: { type: 'string', default: '5173' } } })
const port = Number(values.port)
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`demo: --port must be an integer between 0 and 65535, got ${values.port}`)
  process.exit(1)
}

await buildDemo()
const server = await startStaticServer({ root: demoOutDir, port })
console.log(`Sift demo: ${server.url}/  (Ctrl+C to stop)`)
