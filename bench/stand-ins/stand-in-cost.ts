// What finding stand-ins costs (worker/rank/query-expansion.ts): reading the shipped word-neighbour table at open, and
// `requestExpansions` for requests whose words the history never uses, asked twice. The history's vocabulary is
// simulated: every other word of the table is "used".
//   npx tsx bench/stand-ins/stand-in-cost.ts
import { WORD_NEIGHBOURS_FILE, decodeWordNeighbours } from '../../worker/embed/word-neighbours'
import { nodeHost } from '../../worker/hosts/node/node-host'
import { requestExpansions } from '../../worker/rank/query-expansion'
import { wordQueryTerms } from '../../worker/text/text-analysis'

const queryTerm = (word: string): string | null => wordQueryTerms(word, 'en')[0] ?? null
const host = nodeHost({}, new URL('../../', import.meta.url))
const file = await host.readModelFile(host.localModelPath, WORD_NEIGHBOURS_FILE)
let started = performance.now()
const table = decodeWordNeighbours(file)
console.log(
  `decode ${file.byteLength} bytes, ${table.words.length} words: ${(performance.now() - started).toFixed(1)} ms`,
)
const used = new Set(table.words.filter((_, i) => i % 2 === 0).map((word) => queryTerm(word)))
const historyUses = (term: string) => used.has(term)
// Requests of four words the "history" does not use (odd rows), from the middle of the frequency list.
const unused = table.words.filter(
  (word, i) => i % 2 === 1 && i > 2000 && word.length > 3 && queryTerm(word) !== null && !used.has(queryTerm(word)!),
)
const requests = Array.from({ length: 100 }, (_, r) => unused.slice(r * 4, r * 4 + 4).join(' '))
for (const round of ['first', 'again']) {
  const times: number[] = []
  for (const request of requests) {
    started = performance.now()
    requestExpansions(request, 'en', table, historyUses)
    times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  console.log(
    `${round}: 100 requests of 4 unused words, p50 ${times[50].toFixed(2)} ms, p95 ${times[95].toFixed(2)} ms`,
  )
}
