// eld's own files, read from its package rather than through its entry: its exports name only the detector object,
// whose n-gram tables are private to it (`eld-data.d.ts` types them). package.json pins eld's version, and the
// equality test (tests/text/ngram-detector.test.ts) fails on any release that reads texts otherwise.
import { avgScore } from '../../node_modules/eld/src/avgScore.js'
import { dictionary } from '../../node_modules/eld/src/dictionary.js'
import { ngramsData } from '../../node_modules/eld/src/ngrams/extrasmall.js'
import { separators } from '../../node_modules/eld/src/regexPatterns.js'

/**
 * `eld`'s detector (its `extrasmall` table: 60 languages by character n-grams of the text's UTF-8 bytes), computed as
 * `eld.detect` computes it, to the same language, scores and reliability, at a fraction of its cost: `eld` builds each
 * n-gram as a string, gathers them as the keys of a fresh object and walks each one's languages as object keys, and
 * the garbage alone was most of the lexical index's indexing time (BENCHMARKS.md, "Languages", the cost rows). Here a
 * text's bytes go into one reused buffer, each n-gram is a number (its bytes in base 256), the table is a hash over
 * typed arrays built once, and nothing is allocated per n-gram. Nothing of a text stays once it is detected.
 * `tests/text/ngram-detector.test.ts` holds it equal to `eld.detect` on every language's texts and on any text.
 */

export interface NgramDetection {
  /** ISO 639-1 code of the best-scored language; '' when no n-gram of the text is known. */
  language: string
  /** Each scored language's score in (0, 1), as `eld`'s `getScores()`; empty unless asked for. */
  scores: Record<string, number>
  /** `eld`'s `isReliable()`: enough n-grams, and a top score near the language's usual one. */
  reliable: boolean
}

/** `eld`'s constants: the score its table stores each entry less, the raw-to-(0, 1) scale, its text limits. */
const ELD = {
  baseNgramScore: 53,
  scale: 25,
  maxChars: 1000,
  cutAfterBytes: 350,
  enforceCutAfterBytes: 380,
  maxWordBytes: 70,
  ngramBytes: 4,
  ngramStride: 3,
  reliableRatio: 0.75,
  reliableMargin: 0.01,
}

const SPACE = 32
/** The longest n-gram of the table: a word of at most four bytes between its two marking spaces. */
const MAX_KEY_BYTES = 6
const TWO_32 = 2 ** 32
/** Room for a text's bytes (eld stops after 380, plus the last character's 4) and for its n-grams. */
const BUFFER_BYTES = 512

const codes: string[] = Object.values(ngramsData.languages)
/** Each byte's stand-in character, as its code (all below 256). */
const STAND_IN = Uint8Array.from(dictionary, (character) => character.charCodeAt(0))

/** The n-gram table as open addressing over typed arrays, keyed by `keyOf`; -1 in `high` marks an empty slot. */
interface NgramTable {
  mask: number
  high: Int32Array
  low: Uint32Array
  /** Where a slot's (language, score + base) pairs start in `pairs`, and how many. */
  start: Int32Array
  count: Int32Array
  pairs: Int32Array
}

let table: NgramTable | undefined

/** An n-gram's characters (each below 256, none 0) as a base-256 number: exact up to `MAX_KEY_BYTES`. */
function keyOf(ngram: string): number {
  let key = 0
  for (let i = 0; i < ngram.length; i++) key = key * 256 + ngram.charCodeAt(i)
  return key
}

function slotOf(high: number, low: number, mask: number): number {
  return (Math.imul(low ^ Math.imul(high, 0x9e3779b1), 0x85ebca6b) >>> 0) & mask
}

/** Builds `NgramTable` from eld's table, once, on the first detection. */
function ngramTable(): NgramTable {
  if (table) return table
  const ngrams = Object.keys(ngramsData.ngrams)
  const size = 2 ** Math.ceil(Math.log2(2 * ngrams.length))
  const built: NgramTable = {
    mask: size - 1,
    high: new Int32Array(size).fill(-1),
    low: new Uint32Array(size),
    start: new Int32Array(size),
    count: new Int32Array(size),
    pairs: new Int32Array(2 * ngrams.reduce((sum, ngram) => sum + Object.keys(ngramsData.ngrams[ngram]).length, 0)),
  }
  let next = 0
  for (const ngram of ngrams) {
    const key = keyOf(ngram)
    const high = Math.floor(key / TWO_32)
    const low = (key - high * TWO_32) >>> 0
    let slot = slotOf(high, low, built.mask)
    while (built.high[slot] !== -1) slot = (slot + 1) & built.mask
    const scores = ngramsData.ngrams[ngram]
    built.high[slot] = high
    built.low[slot] = low
    built.start[slot] = next
    for (const language of Object.keys(scores)) {
      built.pairs[next++] = Number(language)
      built.pairs[next++] = scores[language] + ELD.baseNgramScore
    }
    built.count[slot] = (next - built.start[slot]) / 2
  }
  table = built
  return built
}

/** Adds the scores of the n-gram `key` (when the table has it) to `totals`. */
function addScores(key: number, totals: Float64Array): void {
  const { mask, high, low, start, count, pairs } = ngramTable()
  const keyHigh = Math.floor(key / TWO_32)
  const keyLow = (key - keyHigh * TWO_32) >>> 0
  for (let slot = slotOf(keyHigh, keyLow, mask); high[slot] !== -1; slot = (slot + 1) & mask) {
    if (high[slot] !== keyHigh || low[slot] !== keyLow) continue
    const end = start[slot] + 2 * count[slot]
    for (let i = start[slot]; i < end; i += 2) totals[pairs[i]] += pairs[i + 1]
    return
  }
}

/** The text's bytes as stand-ins (`bytes`), and where each word starts and ends in them. */
const bytes = new Uint8Array(BUFFER_BYTES)
const wordStarts = new Int32Array(BUFFER_BYTES)
const wordEnds = new Int32Array(BUFFER_BYTES)
/** The text's n-gram keys, repeats included, and its n-grams too long for a key (words over 70 bytes). */
const keys = new Float64Array(BUFFER_BYTES)
const long: string[] = []
const totals = new Float64Array(codes.length)

/**
 * Reads `text` (normalised) into `bytes` as eld reads it into words: UTF-8, each byte as its stand-in, words split
 * at spaces, cut after 350 bytes at a space and after 380 at any character. Returns how many words.
 */
function readWords(text: string): number {
  let length = 0
  let words = 0
  let wordStart = 0
  let counted = 0
  const put = (value: number) => {
    bytes[length++] = STAND_IN[value]
  }
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i)
    if (code < 0x80) {
      if (code === SPACE) {
        if (length > wordStart) {
          wordStarts[words] = wordStart
          wordEnds[words++] = length
          wordStart = length
        }
        if (counted > ELD.cutAfterBytes) break
      } else bytes[length++] = code
      counted++
    } else if (code < 0x800) {
      put(0xc0 | (code >> 6))
      put(0x80 | (code & 0x3f))
      counted += 2
    } else if (code < 0xd800 || code >= 0xe000) {
      put(0xe0 | (code >> 12))
      put(0x80 | ((code >> 6) & 0x3f))
      put(0x80 | (code & 0x3f))
      counted += 3
    } else {
      i++
      code = 0x10000 + (((code & 0x3ff) << 10) | (text.charCodeAt(i) & 0x3ff))
      put(0xf0 | (code >> 18))
      put(0x80 | ((code >> 12) & 0x3f))
      put(0x80 | ((code >> 6) & 0x3f))
      put(0x80 | (code & 0x3f))
      counted += 4
    }
    if (counted > ELD.enforceCutAfterBytes) break
  }
  if (length > wordStart) {
    wordStarts[words] = wordStart
    wordEnds[words++] = length
  }
  return words
}

/** `bytes[from, to)` as a key, after a leading space when `lead`, before a trailing one when `trail`. */
function keyOfBytes(from: number, to: number, lead: boolean, trail: boolean): number {
  let key = lead ? SPACE : 0
  for (let i = from; i < to; i++) key = key * 256 + bytes[i]
  return trail ? key * 256 + SPACE : key
}

/**
 * Each word's n-grams as eld takes them: 4 bytes at a stride of 3 within its first 70 bytes, the first after a
 * leading space, and a last one from 4 bytes before the 70-byte mark (or the word's start) to the word's end, then a
 * trailing space. Keys go to `keys`; a last n-gram longer than a key (a word over 70 bytes) goes to `long`. Returns
 * how many keys.
 */
function collectNgrams(words: number): number {
  let found = 0
  for (let w = 0; w < words; w++) {
    const start = wordStarts[w]
    const end = wordEnds[w]
    const length = Math.min(end - start, ELD.maxWordBytes)
    let j = 0
    for (; j + ELD.ngramBytes < length; j += ELD.ngramStride)
      keys[found++] = keyOfBytes(start + j, start + j + ELD.ngramBytes, j === 0, false)
    const from = start + Math.max(0, length - ELD.ngramBytes)
    if ((j === 0 ? 1 : 0) + (end - from) + 1 <= MAX_KEY_BYTES) keys[found++] = keyOfBytes(from, end, j === 0, true)
    else long.push(`${j === 0 ? ' ' : ''}${String.fromCharCode(...bytes.subarray(from, end))} `)
  }
  return found
}

/** Scores each distinct n-gram once into `totals`; returns how many distinct n-grams the text has. */
function scoreNgrams(found: number): number {
  const sorted = keys.subarray(0, found).sort()
  let distinct = 0
  for (let i = 0; i < found; i++) {
    if (i > 0 && sorted[i] === sorted[i - 1]) continue
    distinct++
    addScores(sorted[i], totals)
  }
  return distinct + (long.length === 0 ? 0 : new Set(long).size)
}

/** A raw total as `eld` scales it into (0, 1). */
function scaled(total: number, ngrams: number): number {
  const perNgram = total / ngrams
  return perNgram / (perNgram + ELD.scale)
}

/**
 * The language of `text` as `eld.detect` tells it, with its reliability, and its scores when `withScores` (an
 * object per text, which only a request's likely languages need).
 */
export function detectNgrams(text: string, withScores = false): NgramDetection {
  totals.fill(0)
  const normalized = text.substring(0, ELD.maxChars).replace(separators, ' ').trim().toLowerCase()
  long.length = 0
  const ngrams = scoreNgrams(collectNgrams(readWords(normalized)))
  // The best and the runner-up, ties to the lower language number, as eld's stable sort orders them.
  let best = -1
  let runnerUp = -1
  for (let i = 0; i < totals.length; i++) {
    if (totals[i] <= 0) continue
    if (best < 0 || totals[i] > totals[best]) {
      runnerUp = best
      best = i
    } else if (runnerUp < 0 || totals[i] > totals[runnerUp]) runnerUp = i
  }
  if (best < 0) return { language: '', scores: {}, reliable: false }
  const language = codes[best]
  const top = scaled(totals[best], ngrams)
  // As eld 2.1.0 reads it: the runner-up's language number where its score was meant, so the margin only ever
  // tells a text scored in one language alone; kept, since the detections the ranking was tuned on are eld's.
  const next = Math.max(runnerUp, 0)
  const reliable =
    ngrams >= 3 && !(avgScore[language] * ELD.reliableRatio > top || ELD.reliableMargin > Math.abs(top - next))
  return { language, reliable, scores: withScores ? scoresOf(ngrams) : {} }
}

/** Each scored language's score, best first (ties in language order), as eld's `getScores()`. */
function scoresOf(ngrams: number): Record<string, number> {
  const ranked: [number, number][] = []
  for (let i = 0; i < totals.length; i++) if (totals[i] > 0) ranked.push([i, scaled(totals[i], ngrams)])
  ranked.sort((a, b) => b[1] - a[1])
  const scores: Record<string, number> = {}
  for (const [i, value] of ranked) scores[codes[i]] = value
  return scores
}
