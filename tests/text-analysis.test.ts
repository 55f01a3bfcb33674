import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  bm25QueryTerms,
  bm25Tokens,
  contentTermCount,
  contentTerms,
  contentWords,
  normaliseSentence,
  withoutWords,
  words,
} from '../worker/text/text-analysis'

describe('words', () => {
  it('are runs of letters and digits in any script, lowercased after they are found', () => {
    expect(words("Wow, Mel's café — 3 days!")).toEqual(['wow', 'mel', 's', 'café', '3', 'days'])
    expect(words('Grüße aus Zürich, 東京 2024')).toEqual(['grüße', 'aus', 'zürich', '東京', '2024'])
    // Lowercasing never splits a word: the capital İ lowercases to i and a combining dot.
    expect(words('İstanbul')).toEqual(['i̇stanbul'])
    expect(words('… !!')).toEqual([])
  })

  it('content words leave out stop words; terms are their stems, each once', () => {
    expect(contentWords('What did she paint at the lake?')).toEqual(['paint', 'lake'])
    expect(contentTermCount('Yes, the second one!')).toBe(3)
    expect(contentTerms('Paintings, painted, painting: she paints.')).toEqual(new Set(['paint']))
  })

  it('normaliseSentence is the words joined by single spaces', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        expect(normaliseSentence(text)).toBe(words(text).join(' '))
      }),
    )
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', 'B', 'Σ', 'ς', 'İ', 'ß', ' ', '.', "'", '’', '3', 'é') }),
        (text) => {
          expect(normaliseSentence(text)).toBe(words(text).join(' '))
        },
      ),
    )
  })

  it('withoutWords removes the given words with their possessive and leaves the rest as it was', () => {
    const names = new Set(['melanie'])
    expect(withoutWords("What is Melanie's hobby, melanie’s?", names)).toBe('What is  hobby, ?')
    const text = 'Melanies and Mel stay.'
    expect(withoutWords(text, names)).toBe(text)
  })
})

describe("BM25's tokens", () => {
  it('split on whitespace and punctuation only, so symbols stay inside a token', () => {
    expect(bm25Tokens('It cost $50, in c++!')).toEqual(['It', 'cost', '$50', 'in', 'c++', ''])
  })

  it('a query is searched by its content terms, or by all its terms when it has none', () => {
    expect(bm25QueryTerms('What did Melanie paint?')).toEqual(['melani', 'paint'])
    expect(bm25QueryTerms('Who is it?')).toEqual(['who', 'is', 'it'])
  })
})
