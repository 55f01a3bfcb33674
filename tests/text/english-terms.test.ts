import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { STOP_WORDS, stemEnglish } from '../../worker/text/english'
import { indexTerms, wordQueryTerms } from '../../worker/text/text-analysis'

describe('stemEnglish', () => {
  it.each([
    ['paint', 'paint'],
    ['paints', 'paint'],
    ['painted', 'paint'],
    ['painting', 'paint'],
    ['paintings', 'paint'],
    ['bake', 'bak'],
    ['baked', 'bak'],
    ['baking', 'bak'],
    ['studies', 'study'],
    ['studied', 'study'],
    ['hobbies', 'hobby'],
    ['running', 'run'],
    ['stopped', 'stop'],
    ['kids', 'kid'],
    ['classes', 'class'],
    ['misses', 'miss'],
  ])('folds %s to %s', (word, stem) => {
    expect(stemEnglish(word)).toBe(stem)
  })

  it.each(['fall', 'miss', 'bus', 'need', 'speed', 'class', 'is', 'go', 'tree', 'going', 'ies'])(
    'leaves %s alone (stem-final letters, short words)',
    (word) => {
      expect(stemEnglish(word)).toBe(word)
    },
  )

  it('keeps the doubled consonants that belong to the word', () => {
    expect(stemEnglish('falling')).toBe('fall')
    expect(stemEnglish('missed')).toBe('miss')
    expect(stemEnglish('buzzing')).toBe('buzz')
  })

  it('never returns an empty or longer string, and is deterministic', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{1,14}$/), (word) => {
        const stem = stemEnglish(word)
        expect(stem.length).toBeGreaterThan(0)
        expect(stem.length).toBeLessThanOrEqual(word.length)
        expect(stemEnglish(word)).toBe(stem)
      }),
    )
  })
})

describe('English terms', () => {
  it('lowercases and stems; the query side drops stop words', () => {
    expect(indexTerms('Paintings', 'en')).toEqual(['paint'])
    expect(wordQueryTerms('paintings', 'en')).toEqual(['paint'])
    expect(indexTerms('What', 'en')).toEqual(['what'])
    expect(wordQueryTerms('what', 'en')).toEqual([])
    expect(wordQueryTerms('did', 'en')).toEqual([])
    expect(wordQueryTerms('s', 'en')).toEqual([])
  })

  it('stop words are lowercase single tokens', () => {
    for (const word of STOP_WORDS) expect(word).toMatch(/^[a-z]+$/)
  })
})
