// What a forget leaves behind in the in-memory structures (no model, no database): the lexical index's conversation
// numbers and vocabulary, and the vector rows' conversation numbers and bytes.
import { describe, expect, it } from 'vitest'
import type { Sentence } from '../../src/types'
import { Bm25Index } from '../../worker/index/lexical/bm25-index'
import { LexicalIndex } from '../../worker/index/lexical/lexical-index'
import { quantizeVectors } from '../../worker/index/vector/quantize-vector'
import { VectorRows } from '../../worker/index/vector/vector-rows'
import { seededRandom } from '../../worker/util/seeded-random'

function sentence(sid: number, text: string, conversationId: string): Sentence {
  return {
    sid,
    text,
    conversationId,
    messageId: `m${sid}`,
    seq: sid,
    index: 0,
    role: 'user',
    timestamp: 0,
    start: 0,
    end: text.length,
  }
}

/** The index's vocabulary as its snapshot writes it. */
function terms(index: LexicalIndex): string[] {
  const { sentences, turns } = index.serialize()
  return [...sentences.terms.split('\n'), ...turns.terms.split('\n')]
}

describe('LexicalIndex after a forget', () => {
  const history = () => [
    sentence(1, 'The zebra crossed the road.', 'first'),
    sentence(2, 'My secret zanzibar plan.', 'secret'),
    sentence(3, 'Another zebra grazed.', 'last'),
  ]

  it('lets go of a conversation with its last sentence, in memory and in the snapshot, and of words only it had', () => {
    const index = new LexicalIndex()
    index.add(history())
    expect(index.serialize().conversations).toEqual(['first', 'secret', 'last'])
    index.remove([2])
    expect(index.search('zanzibar')).toEqual([])
    expect(index.search('zebra', { conversationId: 'secret' })).toEqual([])
    const snapshot = index.serialize()
    expect(snapshot.conversations).toEqual(['first', 'last'])
    expect(terms(index)).not.toContain('zanzibar')
    expect(terms(index)).toContain('zebra')
    // The renumbered groups still filter: each conversation finds its own sentence, after a round trip too.
    for (const restored of [index, LexicalIndex.deserialize(snapshot)]) {
      expect(restored.search('zebra', { conversationId: 'first' }).map((h) => h.sid)).toEqual([1])
      expect(restored.search('zebra', { conversationId: 'last' }).map((h) => h.sid)).toEqual([3])
    }
  })

  it('keeps a conversation while it has a sentence, and takes a forgotten one back as new', () => {
    const index = new LexicalIndex()
    index.add([...history(), sentence(4, 'A second zebra secret.', 'secret')])
    index.remove([2])
    expect(index.serialize().conversations).toEqual(['first', 'secret', 'last'])
    index.remove([4])
    expect(index.serialize().conversations).toEqual(['first', 'last'])
    index.add([sentence(5, 'Zebra stripes again.', 'secret')])
    const restored = LexicalIndex.deserialize(index.serialize())
    expect(restored.serialize().conversations).toEqual(['first', 'last', 'secret'])
    expect(restored.search('zebra', { conversationId: 'secret' }).map((h) => h.sid)).toEqual([5])
    expect(restored.search('zebra', { conversationId: 'first' }).map((h) => h.sid)).toEqual([1])
  })

  it('drops the forgotten words from the in-memory vocabulary at once, not at the next compaction', () => {
    const bm25 = new Bm25Index(1)
    bm25.add(1, 0, [{ terms: ['zanzibar', 'plan'], length: 2 }])
    bm25.add(2, 0, [{ terms: ['zebra'], length: 1 }])
    const index = new LexicalIndex()
    index.add([sentence(1, 'zanzibar plan', 'c'), sentence(2, 'zebra', 'c')])
    index.remove([1])
    // The index's own BM25s were compacted by the remove: nothing is left to compact at serialise time.
    const inMemory = (index as unknown as { sentences: Bm25Index }).sentences
    expect((inMemory as unknown as { termIds: Map<string, number> }).termIds.has('zanzibar')).toBe(false)
    bm25.remove(1)
    expect((bm25 as unknown as { termIds: Map<string, number> }).termIds.has('zanzibar')).toBe(true)
  })
})

describe('LexicalIndex languages after a forget', () => {
  it('lets go of a forgotten sentence’s language, and of every word whose terms it remembered', () => {
    const index = new LexicalIndex()
    index.add([
      sentence(1, 'The zebra crossed the road near the old harbour.', 'c'),
      sentence(2, 'Mein geheimer Sansibar-Plan bleibt unter uns.', 'c'),
    ])
    expect(index.languageOf(2)).toBe('de')
    expect(index.serialize().languages.codes).toEqual(['en', 'de'])
    const memo = (index as unknown as { memo: { size: number } }).memo
    expect(memo.size).toBeGreaterThan(0)
    index.remove([2])
    expect(memo.size).toBe(0)
    expect(index.languageOf(2)).toBeUndefined()
    expect(index.likelyLanguages('c')).toEqual(['en'])
    const { languages } = index.serialize()
    expect(languages.codes).toEqual(['en'])
    expect([...languages.bySid]).toEqual([0, 1])
  })
})

describe('VectorRows after a removal', () => {
  const dim = 8

  /** The bytes of a row's codes and residuals in the rows' memory, and its scales. */
  const rowBytes = (rows: VectorRows, row: number) => {
    const memory = new Int8Array(rows.memory.buffer)
    const { stride } = rows
    const residualsAt = rows.layout().residualsAt
    return [
      ...memory.subarray(row * stride, (row + 1) * stride),
      ...memory.subarray(residualsAt + row * stride, residualsAt + (row + 1) * stride),
      rows.scales[row],
      rows.residualScales[row],
    ]
  }
  const zeros = (rows: VectorRows) => new Array(2 * rows.stride + 2).fill(0)

  it('zeroes the freed row and lets go of a conversation with its last row', () => {
    const rows = new VectorRows(dim, 4, { rescoreRoom: 4 })
    const random = seededRandom(3)
    const vectors = Float32Array.from({ length: 3 * dim }, () => random() * 2 - 1)
    rows.add([1, 2, 3], quantizeVectors(vectors, 3, dim), (sid) => (sid === 3 ? 'secret' : 'kept'))
    expect(rows.conversationNumber('secret')).toBe(1)
    expect(rowBytes(rows, 2)).not.toEqual(zeros(rows))
    rows.remove(3)
    expect(rows.conversationNumber('secret')).toBeUndefined()
    expect(rowBytes(rows, 2)).toEqual(zeros(rows))
    // The first row's hole takes the last row, whose old place is zeroed too.
    rows.remove(1)
    expect(rows.sids[0]).toBe(2)
    expect(rowBytes(rows, 1)).toEqual(zeros(rows))
    expect(rows.conversationNumber('kept')).toBe(0)
    rows.add([4], quantizeVectors(vectors.subarray(0, dim), 1, dim), () => 'secret')
    expect(rows.conversationNumber('secret')).toBe(2)
  })
})
