import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { queryTerm } from '../src/core/english-terms'
import { EXPANSIONS_PER_WORD, EXPANSION_SIMILARITY, decodeWordVectors, encodeWordVectors, requestExpansions, type WordVectors } from '../src/core/query-expansion'
import { WORD_VECTORS_FILE } from '../worker/embed/word-vectors'

/** Word vectors from explicit rows (any length: they are unit length once read). */
function vectorsOf(entries: Record<string, number[]>): WordVectors {
  const bytes = encodeWordVectors(Object.keys(entries), Object.values(entries))
  return decodeWordVectors(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer)
}

const usesOnly = (...words: string[]) => {
  const terms = new Set(words.map((word) => queryTerm(word)))
  return (term: string) => terms.has(term)
}

describe('word vectors', () => {
  it('round-trip through the file format as unit vectors, in order, within int8 precision', () => {
    const vectors = vectorsOf({ pottery: [3, 4, 0], ceramics: [0.6, 0.8, 0.05], rain: [0, 0, -2] })
    expect(vectors.words).toEqual(['pottery', 'ceramics', 'rain'])
    expect(vectors.dimensions).toBe(3)
    for (let row = 0; row < 3; row++) {
      const v = vectors.vectors.subarray(row * 3, row * 3 + 3)
      expect(Math.hypot(...v)).toBeCloseTo(1, 6)
    }
    expect([...vectors.vectors.subarray(0, 3)].map((x) => +x.toFixed(2))).toEqual([0.6, 0.8, 0])
    expect(vectors.rowOf.get('rain')).toBe(2)
  })

  it('refuse a file of another kind, or one whose words and rows disagree', () => {
    expect(() => decodeWordVectors(new ArrayBuffer(16))).toThrow(/not a Sift word-vector file/)
    const bytes = encodeWordVectors(['a', 'b'], [[1, 0], [0, 1]])
    const cut = bytes.slice(0, bytes.length - 2)
    expect(() => decodeWordVectors(cut.buffer)).toThrow(/2 rows but 1 words/)
  })
})

describe('requestExpansions', () => {
  const vectors = vectorsOf({
    ceramics: [1, 0, 0, 0],
    pottery: [0.95, 0.3, 0, 0],
    potteries: [0.94, 0.33, 0, 0],
    clay: [0.8, 0, 0.6, 0],
    glaze: [0.7, 0.1, 0, 0.7],
    kiln: [0.75, 0, 0, 0.66],
    enrol: [0, 0, 0, 1],
    signed: [0, 0.2, 0, 0.98],
    the: [0.99, 0, 0, 0.1],
    melanie: [0.9, 0, 0.1, 0],
  })

  it('widens only the words the history never uses, with the closest words it does use, each term once', () => {
    const history = usesOnly('pottery', 'potteries', 'clay', 'signed', 'melanie', 'the')
    const expansions = requestExpansions('When did Melanie enrol in ceramics lessons?', vectors, history, new Set(['melanie']))
    // "lessons" has no vector; "pottery" and "potteries" are one term; "the" is a stop word; glaze and kiln are not in the history.
    expect(expansions).toEqual([
      { word: 'enrol', standIns: ['signed'] },
      { word: 'ceramics', standIns: ['pottery', 'clay'] },
    ])
  })

  it('leaves a word the history uses as it is, and names in `excluded` alone', () => {
    const history = usesOnly('ceramics', 'pottery', 'clay')
    expect(requestExpansions('ceramics', vectors, history)).toEqual([])
    expect(requestExpansions('Melanie', vectors, usesOnly('ceramics'), new Set(['melanie']))).toEqual([])
  })

  it('never adds a word below EXPANSION_SIMILARITY, nor more than EXPANSIONS_PER_WORD', () => {
    const history = usesOnly('pottery', 'clay', 'glaze', 'kiln', 'signed')
    const [{ standIns }] = requestExpansions('ceramics', vectors, history)
    expect(standIns.length).toBeLessThanOrEqual(EXPANSIONS_PER_WORD)
    const row = (word: string) => vectors.vectors.subarray(vectors.rowOf.get(word)! * 4, vectors.rowOf.get(word)! * 4 + 4)
    const cosine = (a: string, b: string) => row(a).reduce((sum, x, i) => sum + x * row(b)[i], 0)
    for (const word of standIns) expect(cosine('ceramics', word)).toBeGreaterThanOrEqual(EXPANSION_SIMILARITY)
    expect(standIns).not.toContain('signed')
    expect(standIns).toEqual([...standIns].sort((a, b) => cosine('ceramics', b) - cosine('ceramics', a)))
  })

  it('with the shipped vectors, finds the history’s word for a paraphrase', () => {
    const file = readFileSync(new URL(`../public/models/${WORD_VECTORS_FILE}`, import.meta.url))
    const shipped = decodeWordVectors(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer)
    expect(shipped.words.length).toBe(20_000)
    const history = usesOnly('pottery', 'class', 'signed', 'weekend')
    const standIns = requestExpansions('When did she enrol in ceramics lessons?', shipped, history).flatMap((e) => e.standIns)
    expect(standIns).toContain('pottery')
  })
})
