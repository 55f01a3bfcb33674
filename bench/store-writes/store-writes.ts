// What the store's own work costs, in Node on fake-indexeddb (no model, no indexes): adding messages, appending
// vectors in the background indexer's batches, reading everything back as open does, and forgetting messages one at a
// time, for a plain memory or (--passphrase) an encrypted one. Random unit-free vectors: only the bytes matter here.
//   npx tsx bench/store-writes/store-writes.ts [--sentences 40000] [--passphrase]
import { parseArgs } from 'node:util'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { SiftStore } from '../../worker/store/store'
import { seededRandom } from '../../worker/util/seeded-random'

const { values } = parseArgs({
  options: { sentences: { type: 'string', default: '40000' }, passphrase: { type: 'boolean', default: false } },
})
const sentenceCount = Number(values.sentences)
/** The background indexer's batch (worker/engine's BACKLOG_CHUNK). */
const BATCH = 128
const DIM = 512
const FORGETS = 50

const store = await SiftStore.open(
  'store-writes',
  {
    indexedDB: new IDBFactory() as unknown as globalThis.IDBFactory,
    IDBKeyRange: IDBKeyRange as unknown as typeof globalThis.IDBKeyRange,
  },
  'model',
  values.passphrase ? { passphrase: 'a passphrase for the benchmark' } : undefined,
)
const messages = Array.from({ length: sentenceCount / 2 }, (_, i) => ({
  id: `m${i}`,
  role: 'user' as const,
  content: `Sentence ${i} comes first. Sentence ${i} comes second.`,
  conversationId: 'c',
  timestamp: i,
}))

let started = performance.now()
const sids: number[] = []
for (let i = 0; i < messages.length; i += 500)
  for (const sentence of (await store.addMessages(messages.slice(i, i + 500))).sentences) sids.push(sentence.sid)
const addMs = performance.now() - started

const random = seededRandom(1)
started = performance.now()
for (let i = 0; i < sids.length; i += BATCH) {
  const batch = sids.slice(i, i + BATCH)
  const vectors = Float32Array.from({ length: batch.length * DIM }, () => random() * 2 - 1)
  await store.appendVectors(batch, vectors, DIM, batch[batch.length - 1])
}
const appendMs = performance.now() - started

started = performance.now()
const { blocks } = await store.readContents()
const readMs = performance.now() - started

started = performance.now()
for (let i = 0; i < FORGETS; i++) await store.forget({ id: `m${Math.floor((i * messages.length) / FORGETS)}` })
const forgetMs = performance.now() - started
store.close()

console.log(
  `${values.passphrase ? 'encrypted' : 'plain'}, ${sentenceCount} sentences in ${blocks.length} blocks: ` +
    `add ${addMs.toFixed(0)} ms (500 messages per add), append ${appendMs.toFixed(0)} ms (${BATCH} rows per batch), ` +
    `readContents ${readMs.toFixed(0)} ms, ${FORGETS} forgets ${forgetMs.toFixed(0)} ms`,
)
