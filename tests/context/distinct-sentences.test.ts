import { describe, expect, it } from 'vitest'
import type { ScoredSentence } from '../../src/core/scored-sentence'
import { distinctSentences } from '../../worker/context/distinct-sentences'
import { normalizedHash, normalizeSentence } from '../../worker/text/text-analysis'

function sentence(sid: number, text: string): ScoredSentence {
  return {
    sid,
    turn: sid,
    text,
    conversationId: 'c',
    messageId: `m${sid}`,
    seq: sid,
    index: 0,
    role: 'user',
    timestamp: 0,
    start: 0,
    end: text.length,
    score: 1,
    reason: 'relevant',
  }
}

describe('normalizeSentence', () => {
  it.each([
    ["Wow, that's great!", 'wow that s great'],
    ['  THANKS!!  ', 'thanks'],
    ['Café — 3 days', 'café 3 days'],
    ['…', ''],
  ])('%j → %j', (text, expected) => {
    expect(normalizeSentence(text)).toBe(expected)
  })
})

describe('distinctSentences', () => {
  it('offers repeats (equal up to case and punctuation) only after every distinct sentence, in rank order', () => {
    const ranked = [
      sentence(5, 'Thanks!'),
      sentence(2, 'I moved to Porto.'),
      sentence(1, 'thanks'),
      sentence(3, 'Thanks, Mel!'),
      sentence(4, "Wow, that's great!"),
      sentence(6, 'Wow that’s great'),
    ]
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

describe('normalizedHash', () => {
  const texts = [
    "Wow, that's great!",
    'wow that s great',
    '  THANKS!!  ',
    'thanks',
    'I moved to Porto in 2023.',
    'a b',
    'ab',
    'a  b',
    '--a--b--',
    'x9',
  ]
  it('is equal exactly when the ASCII texts normalise equal', () => {
    for (const a of texts)
      for (const b of texts)
        expect(normalizedHash(a) === normalizedHash(b)).toBe(normalizeSentence(a) === normalizeSentence(b))
  })

  it('hashes a text like its normalised form, and marks empty and non-ASCII texts', () => {
    for (const text of texts) expect(normalizedHash(text)).toBe(normalizedHash(normalizeSentence(text)))
    expect(normalizedHash('…!')).toBe(-2)
    expect(normalizedHash('?! --')).toBe(-1)
    expect(normalizedHash('Café')).toBe(-2)
  })
})

describe('distinctSentences with hashes', () => {
  it('holds back non-ASCII repeats and ASCII-equivalent ones, and keeps different texts whose hashes collide', () => {
    const ranked = [
      sentence(1, 'Café à 3'),
      sentence(2, 'café À 3!'),
      sentence(3, 'That’s it'),
      sentence(4, "that's it"),
    ]
    expect([...distinctSentences(ranked)].map((s) => s.sid)).toEqual([1, 3, 2, 4])
    // Find two different normalised texts with one 32-bit hash (birthday search), then check neither is held back.
    const byHash = new Map<number, string>()
    let pair: [string, string] | undefined
    for (let i = 0; !pair; i++) {
      const text = `w${i.toString(36)}`
      const other = byHash.get(normalizedHash(text))
      if (other !== undefined) pair = [other, text]
      else byHash.set(normalizedHash(text), text)
    }
    expect(normalizedHash(pair[0])).toBe(normalizedHash(pair[1]))
    expect(
      [...distinctSentences([sentence(1, pair[0]), sentence(2, pair[0].toUpperCase()), sentence(3, pair[1])])].map(
        (s) => s.sid,
      ),
    ).toEqual([1, 3, 2])
  })
})
