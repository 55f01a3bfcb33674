import { describe, expect, it } from 'vitest'
import { spreadOverPassages } from '../../worker/context/passage-spread'
import type { ScoredSentence } from '../../src/core/scored-sentence'
import { CONTEXT_TUNING } from '../../worker/context/context-tuning'

/** Sentence `index` of message `messageId`; sids are unique across the test's messages. */
function sentence(messageId: string, index: number): ScoredSentence {
  const sid = messageId.charCodeAt(0) * 1000 + index
  const text = `${messageId} sentence ${index}.`
  return {
    sid,
    turn: 0,
    text,
    conversationId: 'c',
    messageId,
    seq: 0,
    index,
    role: 'user',
    timestamp: 0,
    start: 0,
    end: text.length,
    score: 1,
    reason: 'relevant',
  }
}

const labels = (items: Iterable<ScoredSentence>) => [...items].map((item) => `${item.messageId}${item.index}`)

describe('spreadOverPassages', () => {
  it('brings the held sentences back before the candidates the ranking scores nothing', () => {
    const unscored = (messageId: string, index: number) => ({ ...sentence(messageId, index), score: 0 })
    const ranked = [sentence('a', 0), sentence('a', 1), sentence('b', 0), unscored('c', 0), unscored('d', 0)]
    expect(labels(spreadOverPassages(ranked))).toEqual(['a0', 'b0', 'a1', 'c0', 'd0'])
  })

  it('offers the best sentence of each passage first, then the rest of each passage in rank order', () => {
    const ranked = [
      sentence('a', 1),
      sentence('a', 0),
      sentence('b', 2),
      sentence('a', 2),
      sentence('c', 0),
      sentence('b', 0),
    ]
    expect(labels(spreadOverPassages(ranked))).toEqual(['a1', 'b2', 'c0', 'a0', 'a2', 'b0'])
  })

  it('lets `followers` sentences right after an offered one through, and holds the ones before it and further on', () => {
    const ranked = [
      sentence('a', 3),
      sentence('a', 4),
      sentence('a', 2),
      sentence('a', 5),
      sentence('a', 6),
      sentence('b', 0),
    ]
    expect(labels(spreadOverPassages(ranked, 3, 0))).toEqual(['a3', 'b0', 'a4', 'a2', 'a5', 'a6'])
    expect(labels(spreadOverPassages(ranked, 3, 2))).toEqual(['a3', 'a4', 'a5', 'b0', 'a2', 'a6'])
  })

  it('drops nothing and adds nothing', () => {
    const ranked = ['a', 'b', 'c'].flatMap((messageId) =>
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((index) => sentence(messageId, index)),
    )
    const spread = [...spreadOverPassages(ranked)]
    expect(spread).toHaveLength(ranked.length)
    expect(new Set(spread)).toEqual(new Set(ranked))
  })

  it('a sentence more than passageRadius sentences from every passed one of its message starts a passage of its own', () => {
    const far = sentence('doc', 1 + CONTEXT_TUNING.passageRadius + 1)
    const near = sentence('doc', 1 + CONTEXT_TUNING.passageRadius)
    const ranked = [sentence('doc', 1), near, far, sentence('other', 0)]
    expect(labels(spreadOverPassages(ranked))).toEqual(['doc1', `doc${far.index}`, 'other0', `doc${near.index}`])
  })

  it('measures the radius from the sentences passed, not from the ones held back', () => {
    // doc2 is held (near doc0); doc5 is within the radius of doc2 only, so it starts a passage.
    const ranked = [sentence('doc', 0), sentence('doc', 2), sentence('doc', 5)]
    expect(labels(spreadOverPassages(ranked))).toEqual(['doc0', 'doc5', 'doc2'])
  })

  it('the same index in different messages is different passages', () => {
    const ranked = [sentence('a', 0), sentence('b', 0), sentence('c', 0)]
    expect(labels(spreadOverPassages(ranked))).toEqual(['a0', 'b0', 'c0'])
  })

  it('is lazy: it pulls a candidate only when the next one is wanted', () => {
    let pulled = 0
    function* source(): Generator<ScoredSentence> {
      for (const candidate of [sentence('a', 0), sentence('a', 1), sentence('b', 0), sentence('c', 0)]) {
        pulled++
        yield candidate
      }
    }
    const spread = spreadOverPassages(source())
    expect(spread.next().value?.messageId).toBe('a')
    expect(pulled).toBe(1)
    expect(spread.next().value?.messageId).toBe('b')
    expect(pulled).toBe(3)
  })

  it('passes an empty ranking through', () => {
    expect([...spreadOverPassages([])]).toEqual([])
  })
})
