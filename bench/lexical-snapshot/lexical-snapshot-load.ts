// Cold-start cost of the lexical index: building it, its stored snapshot (size, structured clone as IndexedDB
// does, load), and removing then compacting before a save, on the synthetic history in Node.
//   npx tsx bench/lexical-snapshot/lexical-snapshot-load.ts [--size 100000]
import { parseArgs } from 'node:util'
import { LexicalIndex, type SerializedLexicalIndex } from '../../worker/index/lexical/lexical-index'
import { generateHistory } from '../shared/synthetic-history'
import { syntheticSentences } from '../shared/synthetic-sentences'

const { values } = parseArgs({ options: { size: { type: 'string', default: '100000' } } })
const history = generateHistory(Number(values.size))
const sentences = syntheticSentences(history)

const time = <T>(label: string, work: () => T): T => {
  const started = performance.now()
  const result = work()
  console.log(`${label.padEnd(34)} ${(performance.now() - started).toFixed(1).padStart(8)} ms`)
  return result
}

const bytesOf = (snapshot: SerializedLexicalIndex): number =>
  Object.values(snapshot.sentences)
    .concat(Object.values(snapshot.turns), [snapshot.turnSizes, snapshot.turnSids])
    .reduce((sum: number, part) => {
      if (ArrayBuffer.isView(part)) return sum + part.byteLength
      return typeof part === 'string' ? sum + part.length : sum
    }, snapshot.turnMessageIds.join('').length + snapshot.conversations.join('').length)

const index = time(`index ${sentences.length} sentences`, () => {
  const built = new LexicalIndex()
  built.add(sentences)
  return built
})
const snapshot = time('toSnapshot', () => index.serialize())
console.log(
  `snapshot size                      ${(bytesOf(snapshot) / 2 ** 20).toFixed(1).padStart(8)} MiB (typed arrays + string chars)`,
)
const cloned = time('structuredClone (as IndexedDB)', () => structuredClone(snapshot))
const loaded = time('fromSnapshot', () => LexicalIndex.deserialize(cloned))
time('search after load', () => loaded.search('Do you remember the lake at home?'))
const forgotten = sentences.filter((s) => Number(s.messageId.slice(1)) % 50 === 7).map((s) => s.sid)
time(`remove ${forgotten.length} sentences`, () => loaded.remove(forgotten))
time('toSnapshot after remove (compacts)', () => loaded.serialize())
