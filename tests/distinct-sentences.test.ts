import { describe, expect, it } from 'vitest'
import { distinctSentences, normaliseSentence } from '../src/core/distinct-sentences'
import type { ScoredSentence } from '../src/core/scored-sentence'

function sentence(sid: number, text: string): ScoredSentence {
  return { sid, turn: sid, text, conversationId: 'c', messageId: `m${sid}`, seq: sid, index: 0, role: 'user', timestamp: 0, start: 0, end: text.length, score: 1, reason: 'relevant' }
}

describe('normaliseSentence', () => {
  it.each([
    ["Wow, that's great!", 'wow that s great'],
    ['  THANKS!!  ', 'thanks'],
    ['Café — 3 days', 'café 3 days'],
    ['…', ''],
  ])('%j → %j', (text, expected) => {
    expect(normaliseSentence(text)).toBe(expected)
  })
})

describe('distinctSentences', () => {
  it('offers repeats (equal up to case and punctuation) only after every distinct sentence, in rank order', () => {
    const ranked = [sentence(5, 'Thanks!'), sentence(2, 'I moved to Porto.'), sentence(1, 'thanks'), sentence(3, 'Thanks, Mel!'), sentence(4, "Wow, that's great!"), sentence(6, 'Wow that’s great')]
    expect([...distinctSentences(ranked)].map((s) => s.sid)).toEqual([5, 2, 3, 4, 1, 6])
  })

  it('never drops sentences without letters or digits, and is lazy', () => {
    expect([...distinctSentences([sentence(1, '…'), sentence(2, '!!')])].map((s) => s.sid)).toEqual([1, 2])
    function* endless(): Generator<ScoredSentence> {
      for (let sid = 0; ; sid++) yield sentence(sid, 'again')
    }
    const source = endless()
    const out = distinctSentences(source)
    expect(out.next().value?.sid).toBe(0)
  })
})
