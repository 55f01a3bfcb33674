import { describe, expect, it } from 'vitest'
import {
  EXPANSION_SIMILARITY,
  NEIGHBOURS_KEPT,
  encodeWordNeighbours,
  neighbourTable,
} from '../../scripts/word-neighbour-table'
import { WORD_NEIGHBOURS_FILE, decodeWordNeighbours, type WordNeighbours } from '../../worker/embed/word-neighbours'
import { nodeHost } from '../../worker/hosts/node/node-host'
import { requestExpansions } from '../../worker/rank/query-expansion'
import { wordQueryTerms } from '../../worker/text/text-analysis'
import { RANK_TUNING } from '../../worker/rank/rank-tuning'

/** Unit rows from explicit vectors (any length), row-major. */
function unitRows(vectors: number[][]): Float32Array {
  const dimensions = vectors[0].length
  const rows = new Float32Array(vectors.length * dimensions)
  vectors.forEach((vector, i) => {
    const norm = Math.hypot(...vector)
    vector.forEach((x, d) => (rows[i * dimensions + d] = x / norm))
  })
  return rows
}

/** A neighbour table of explicit vectors, through the file format. */
function tableOf(entries: Record<string, number[]>): WordNeighbours {
  const vectors = Object.values(entries)
  const bytes = encodeWordNeighbours(
    Object.keys(entries),
    neighbourTable(unitRows(vectors), vectors.length, vectors[0].length),
  )
  return decodeWordNeighbours(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer)
}

const cosine = (a: number[], b: number[]) =>
  a.reduce((sum, x, i) => sum + x * b[i], 0) / (Math.hypot(...a) * Math.hypot(...b))

const usesOnly = (...words: string[]) => {
  const terms = new Set(words.map((word) => wordQueryTerms(word, 'en')[0]))
  return (term: string) => terms.has(term)
}

const entries: Record<string, number[]> = {
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
}

describe('the word-neighbour table', () => {
  it('holds, per word, every other word at EXPANSION_SIMILARITY or closer, closest first, and survives the file format', () => {
    const table = tableOf(entries)
    const words = Object.keys(entries)
    expect(table.words).toEqual(words)
    for (const [row, word] of words.entries()) {
      const expected = words
        .filter((other) => other !== word && cosine(entries[word], entries[other]) >= EXPANSION_SIMILARITY)
        .sort((a, b) => cosine(entries[word], entries[b]) - cosine(entries[word], entries[a]))
      expect(
        [...table.neighboursOf(row)].map((r) => table.words[r]),
        word,
      ).toEqual(expected)
    }
    expect(table.rowOf.get('clay')).toBe(3)
  })

  it('keeps at most NEIGHBOURS_KEPT per word, the closest', () => {
    const many = Array.from({ length: NEIGHBOURS_KEPT + 10 }, (_, i) => [1, i / 1000])
    const { offsets, neighbours } = neighbourTable(unitRows(many), many.length, 2)
    expect(offsets[1] - offsets[0]).toBe(NEIGHBOURS_KEPT)
    expect([...neighbours.subarray(offsets[0], offsets[0] + 3)]).toEqual([1, 2, 3])
  })

  it('refuses a file of another kind, or one whose words and table disagree', () => {
    expect(() => decodeWordNeighbours(new ArrayBuffer(16))).toThrow(/not a Sift word-neighbour file/)
    const bytes = encodeWordNeighbours(
      ['a', 'b'],
      neighbourTable(
        unitRows([
          [1, 0],
          [1, 0.1],
        ]),
        2,
        2,
      ),
    )
    expect(() => decodeWordNeighbours(bytes.slice(0, bytes.length - 2).buffer)).toThrow(
      /2 rows, 2 neighbours, but 1 words/,
    )
  })
})

describe('requestExpansions', () => {
  const table = tableOf(entries)

  it('widens only the words the history never uses, with the closest words it does use, each term once, never a name', () => {
    const history = usesOnly('pottery', 'potteries', 'clay', 'signed', 'melanie', 'the')
    const expansions = requestExpansions(
      'When did Melanie enrol in ceramics lessons?',
      'en',
      table,
      history,
      new Set(['melanie']),
    )
    // "lessons" is not in the table; "pottery" and "potteries" are one term; "the" is a stop word; "melanie" is a
    // name; glaze and kiln are not in the history.
    expect(expansions).toEqual([
      { word: 'enrol', standIns: ['signed'] },
      { word: 'ceramics', standIns: ['pottery', 'clay'] },
    ])
  })

  it('leaves a word the history uses as it is, and names in `excluded` alone', () => {
    expect(requestExpansions('ceramics', 'en', table, usesOnly('ceramics', 'pottery', 'clay'))).toEqual([])
    expect(requestExpansions('Melanie', 'en', table, usesOnly('ceramics'), new Set(['melanie']))).toEqual([])
  })

  it('takes a request word whole, in any script: "café" is not looked up as "caf"', () => {
    const cafes = tableOf({ caf: [1, 0], coffee: [0.9, 0.1], bistro: [0.1, 1] })
    expect(requestExpansions('Which café did she like?', 'en', cafes, usesOnly('coffee'))).toEqual([])
    expect(requestExpansions('Which caf did she like?', 'en', cafes, usesOnly('coffee'))).toEqual([
      { word: 'caf', standIns: ['coffee'] },
    ])
  })

  it('never adds more than expansionsPerWord, closest first', () => {
    const wide = tableOf(
      Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`word${String.fromCharCode(97 + i)}`, [1, i / 100]])),
    )
    const history = (term: string) => term !== wordQueryTerms('worda', 'en')[0]
    const [{ standIns }] = requestExpansions('worda', 'en', wide, history)
    expect(standIns).toEqual(['wordb', 'wordc', 'wordd', 'worde', 'wordf'].slice(0, RANK_TUNING.expansionsPerWord))
  })

  it('offers stand-ins for English requests only: never for another language’s words, even those the table spells', async () => {
    const host = nodeHost({}, new URL('../../', import.meta.url))
    const shipped = decodeWordNeighbours(await host.readModelFile(host.localModelPath, WORD_NEIGHBOURS_FILE))
    // "come", "die" and "son" are English words of the table, and Italian, German and Spanish words of these requests.
    for (const word of ['come', 'die', 'son']) expect(shipped.rowOf.has(word)).toBe(true)
    const historyUses = (term: string) => term !== 'come' && term !== 'die' && term !== 'son'
    expect(requestExpansions('Come si chiama il gatto?', 'it', shipped, historyUses)).toEqual([])
    expect(requestExpansions('Wann kommt die Post?', 'de', shipped, historyUses)).toEqual([])
    expect(requestExpansions('¿Quiénes son tus amigos?', 'es', shipped, historyUses)).toEqual([])
    expect(requestExpansions('Wann kommt die Post?', undefined, shipped, historyUses)).toEqual([])
    expect(requestExpansions('Did the plant die?', 'en', shipped, historyUses).map((e) => e.word)).toEqual(['die'])
  })

  it('with the shipped table, finds the history’s word for a paraphrase', async () => {
    const host = nodeHost({}, new URL('../../', import.meta.url))
    const shipped = decodeWordNeighbours(await host.readModelFile(host.localModelPath, WORD_NEIGHBOURS_FILE))
    expect(shipped.words.length).toBe(20_000)
    const history = usesOnly('pottery', 'class', 'signed', 'weekend')
    const standIns = requestExpansions('When did she enrol in ceramics lessons?', 'en', shipped, history).flatMap(
      (e) => e.standIns,
    )
    expect(standIns).toContain('pottery')
  })
})
