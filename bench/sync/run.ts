// bench:sync — what sync costs (issue 33): a device adds a history and syncs it to a real PouchDB Server on loopback;
// a new device (empty storage, the same passphrase) then syncs it down, and is timed until it lists every message and
// until it has embedded them. Every byte between the devices and the server passes a counting proxy, so "bytes per
// message" is what went over the wire (HTTP and JSON included), each way. First, what sync adds to an `add()`: one
// message at a time on a synced memory and on one without sync, alternating, each add after a pause long enough for
// a round, so that each is the first after a round (the one that waits for the mirror's note of when it began).
//
//   npm run bench:sync [-- --messages 10000] [--adds 200]   (--messages 0: the adds only)
import { createServer, type Server, connect } from 'node:net'
import type { Memory } from '../../src/node'
import { SyncServer, syncedDevice } from '../../tests/sync/sync-server'
import { percentile } from '../shared/latency-summary'
import { generateHistory } from '../shared/synthetic-history'

const PASSPHRASE = 'bench sync passphrase'

/** A TCP proxy to `port` that counts the bytes each way. */
function countingProxy(port: number): Promise<{ server: Server; port: number; up: () => number; down: () => number }> {
  let up = 0
  let down = 0
  const server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1')
    client.on('data', (chunk: Buffer) => {
      up += chunk.length
    })
    upstream.on('data', (chunk: Buffer) => {
      down += chunk.length
    })
    client.pipe(upstream).pipe(client)
    client.on('error', () => upstream.destroy())
    upstream.on('error', () => client.destroy())
  })
  return new Promise((done) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      done({ server, port: typeof address === 'object' && address ? address.port : 0, up: () => up, down: () => down })
    }),
  )
}

function device(name: string, url: string): Promise<Memory> {
  return syncedDevice(name, url, PASSPHRASE)
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now()
  const result = await work()
  return [result, (performance.now() - started) / 1000]
}

const row = (label: string, value: string) => console.log(`${label.padEnd(52)} ${value}`)

function argument(name: string, fallback: number): number {
  const at = process.argv.indexOf(name)
  return at > 0 ? Number(process.argv[at + 1]) : fallback
}

/** `add()` of one message, synced and not, alternating which goes first; a pause after each pair lets a round run. */
async function addLatency(url: string, adds: number): Promise<void> {
  const arms = {
    synced: await device('bench-adds-synced', url),
    'without sync': await syncedDevice('bench-adds-plain', url, PASSPHRASE, { sync: undefined }),
  }
  const times: Record<keyof typeof arms, number[]> = { synced: [], 'without sync': [] }
  const messages = generateHistory(adds * 4).messages
  for (let i = 0; i < adds; i++) {
    const order = (i % 2 === 0 ? ['synced', 'without sync'] : ['without sync', 'synced']) as (keyof typeof arms)[]
    for (const arm of order) {
      const [, seconds] = await timed(() => arms[arm].add({ ...messages[i], id: `adds-${i}` }))
      times[arm].push(seconds * 1000)
    }
    await new Promise((done) => setTimeout(done, 150))
  }
  for (const memory of Object.values(arms)) await memory.close()
  const [p50, p95] = [50, 95].map((p) => [percentile(times.synced, p), percentile(times['without sync'], p)])
  row(
    `add() of one message, ${adds} each, p50: synced / not`,
    `${p50[0].toFixed(1)} / ${p50[1].toFixed(1)} ms (${(p50[0] / p50[1]).toFixed(2)}×)`,
  )
  row(
    `add() of one message, ${adds} each, p95: synced / not`,
    `${p95[0].toFixed(1)} / ${p95[1].toFixed(1)} ms (${(p95[0] / p95[1]).toFixed(2)}×)`,
  )
}

async function main(): Promise<void> {
  const count = argument('--messages', 10_000)
  const history = generateHistory(count * 2)
  const messages = history.messages.slice(0, count)
  const characters = messages.reduce((sum, message) => sum + message.content.length, 0)

  const server = await SyncServer.start()
  const proxy = await countingProxy(server.port)
  const url = `http://127.0.0.1:${proxy.port}/userdb-bench`
  try {
    await addLatency(`http://127.0.0.1:${server.port}/userdb-bench-adds`, argument('--adds', 200))
    if (count === 0) return
    const first = await device('bench-first', url)
    for (let i = 0; i < messages.length; i += 1000) await first.add(messages.slice(i, i + 1000))
    const [, pushSeconds] = await timed(() => first.synced())
    const sent = proxy.up()
    await first.close()

    const [before, beforeDown] = [proxy.up(), proxy.down()]
    const second = await device('bench-second', url)
    const [, listSeconds] = await timed(() => second.synced())
    const { messages: listed, pending } = await second.stats()
    const [, embedSeconds] = await timed(() => second.indexed())
    const { sentences, pending: left } = await second.stats()
    const received = proxy.down() - beforeDown
    const askedFor = proxy.up() - before
    await second.close()

    row('messages (mean characters)', `${count} (${Math.round(characters / count)})`)
    row('first device: synced() after adding them', `${pushSeconds.toFixed(1)} s`)
    row('bytes sent per message, first device (HTTP included)', `${Math.round(sent / count)} B`)
    row('new device: synced() until it lists them', `${listSeconds.toFixed(1)} s (${listed} listed)`)
    row('  sentences still to embed then', `${pending}`)
    row(
      'new device: then indexed() (the rest embedded)',
      `${embedSeconds.toFixed(1)} s (${sentences} sentences, ${left} left)`,
    )
    row(
      'bytes received per message, new device',
      `${Math.round(received / count)} B (sent ${Math.round(askedFor / count)} B)`,
    )
  } finally {
    proxy.server.close()
    await server.stop()
  }
}

await main()
