// Where buildContext spends its time: the engine's own in-memory pieces (catalog, BM25 lexical index,
// vector index, rank + pack) loaded with the synthetic history in Node (same V8 as Chromium), each stage timed.
//   npx tsx bench/profile/profile-context.ts [--size 100000] [--queries 20] [--rank-only]  (--rank-only skips the full assembleContext stages)
import { parseArgs } from 'node:util'
import { fuseRanks } from '../../oracles/fuse-ranks'
import type { Sentence, StoredMessage } from '../../src/types'
import { assembleContext } from '../../worker/context/assemble-context'
import { toContextRequest } from '../../worker/input/context-request'
import { LexicalIndex } from '../../worker/index/lexical/lexical-index'
import { rankCandidates } from '../../worker/rank/rank-candidates'
import type { MessageRecord } from '../../worker/store/message-record'
import { SentenceCatalog } from '../../worker/index/sentence-catalog'
import { VectorIndex } from '../../worker/index/vector/vector-index'
import { summarize } from '../shared/latency-summary'
import { seededRandom } from '../../worker/util/seeded-random'
import { generateHistory, generateQueries } from '../shared/synthetic-history'
import { SyntheticVectors } from '../shared/synthetic-vectors'

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '20' },
    'rank-only': { type: 'boolean', default: false },
  },
})
const size = Number(values.size)
const history = generateHistory(size)
const queries = generateQueries(Number(values.queries), history, 1000)
const generator = new SyntheticVectors()
const { dim } = generator

const messages: StoredMessage[] = history.messages.map((m, i) => ({
  id: m.id,
  seq: i + 1,
  role: m.role,
  content: m.content,
  conversationId: m.conversationId,
  timestamp: m.timestamp,
}))
const sentences: Sentence[] = history.sentences.map((s) => {
  const message = messages[Number(s.messageId.slice(1))]
  return {
    sid: s.index + 1,
    messageId: s.messageId,
    conversationId: message.conversationId,
    seq: message.seq,
    index: 0,
    role: message.role,
    timestamp: message.timestamp,
    text: s.text,
    start: s.start,
    end: s.start + s.text.length,
  }
})

const time = <T>(label: string, work: () => T): T => {
  const started = performance.now()
  const result = work()
  console.log(`${label}: ${(performance.now() - started).toFixed(0)} ms`)
  return result
}

const catalog = new SentenceCatalog()
const records: MessageRecord[] = messages.map((m) => ({ ...m, firstSid: 0, spans: [] }))
for (const s of sentences) {
  const record = records[s.seq - 1]
  if (record.spans.length === 0) record.firstSid = s.sid
  record.spans.push(s.start, s.end)
}
time('catalog.add', () => catalog.add(records))
const lexical = new LexicalIndex()
time('lexical.add (BM25 index)', () => lexical.add(sentences))
const vectors = new VectorIndex(dim)
const all = new Float32Array(sentences.length * dim)
history.sentences.forEach((s) =>
  generator.sentence(s.index, s.topic, s.subtopic, all.subarray(s.index * dim, (s.index + 1) * dim)),
)
time('vectors.add', () =>
  vectors.add(
    sentences.map((s) => s.sid),
    all,
    (sid) => catalog.get(sid)?.conversationId,
  ),
)
// As the engine does once the index holds COARSE_MIN_ROWS rows: dense ranking then starts from a probe of the lists.
if (vectors.wantsCoarseLists()) time('vectors.trainCoarseLists', () => [...vectors.trainCoarseLists(seededRandom(7))])

const stages: Record<string, number[]> = {
  lexical: [],
  lexicalHits: [],
  denseScan: [],
  dense256: [],
  fuse: [],
  rankHybrid200: [],
  rankDense200: [],
  assembleHybrid: [],
  assembleDense: [],
  assembleLexical: [],
}
/** The first `count` candidates of one strategy's ranking: scan, selection and fusion without the packer. */
const firstCandidates = (strategy: 'hybrid' | 'dense', text: string, vector: Float32Array, count: number): number => {
  const started = performance.now()
  let taken = 0
  for (const _ of rankCandidates(strategy, [{ text, vector }], undefined, { catalog, vectors, lexical }))
    if (++taken === count) break
  return performance.now() - started
}
for (let pass = 0; pass < 2; pass++) {
  for (const q of queries) {
    const vector = generator.query(q.index, q.topic, q.subtopic)
    const t0 = performance.now()
    const lexicalHits = lexical.search(q.text)
    const t1 = performance.now()
    const denseHits = vectors.search(vector, 256)
    const t2 = performance.now()
    fuseRanks([denseHits.map((h) => h.sid), lexicalHits.map((h) => h.sid)])
    const t3 = performance.now()
    vectors.scan(vector)
    const t4 = performance.now()
    const rankHybrid = firstCandidates('hybrid', q.text, vector, 200)
    const rankDense = firstCandidates('dense', q.text, vector, 200)
    const ranked = (strategy: 'hybrid' | 'dense' | 'lexical') => {
      const started = performance.now()
      assembleContext(
        toContextRequest(q.text, { strategy }),
        [{ text: q.text, vector }],
        { catalog, vectors, lexical },
        { backend: 'wasm', embeddedThrough: Infinity, startedAt: started, queryMs: 0 },
      )
      return performance.now() - started
    }
    const hybrid = values['rank-only'] ? 0 : ranked('hybrid')
    const dense = values['rank-only'] ? 0 : ranked('dense')
    const lexicalOnly = values['rank-only'] ? 0 : ranked('lexical')
    if (pass === 0) continue
    stages.lexical.push(t1 - t0)
    stages.lexicalHits.push(lexicalHits.length)
    stages.dense256.push(t2 - t1)
    stages.fuse.push(t3 - t2)
    stages.denseScan.push(t4 - t3)
    stages.rankHybrid200.push(rankHybrid)
    stages.rankDense200.push(rankDense)
    stages.assembleHybrid.push(hybrid)
    stages.assembleDense.push(dense)
    stages.assembleLexical.push(lexicalOnly)
  }
}
console.log(`\n${size} sentences, ${queries.length} queries (second pass), p50 / p95:`)
for (const [stage, values_] of Object.entries(stages)) {
  const s = summarize(values_)
  console.log(
    `  ${stage.padEnd(16)} ${s.p50.toFixed(1).padStart(8)} / ${s.p95.toFixed(1).padStart(8)}${stage === 'lexicalHits' ? ' hits' : ' ms'}`,
  )
}
