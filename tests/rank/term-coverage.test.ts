import { describe, expect, it } from 'vitest'
import type { Sentence } from '../../src/types'
import { LexicalIndex } from '../../worker/index/lexical/lexical-index'
import { termCoverage } from '../../worker/rank/term-coverage'
import { contentTerms, indexTerms } from '../../worker/text/text-analysis'
import { seededRandom } from '../../worker/util/seeded-random'
import { RANK_TUNING } from '../../worker/rank/rank-tuning'

function part(
  sid: number,
  messageId: string,
  index: number,
  text: string,
  role = 'Ann',
  conversationId = 'c1',
): Sentence {
  return { sid, text, conversationId, messageId, seq: sid, index, role, timestamp: 0, start: 0, end: text.length }
}

/**
 * The plain definition: idf-weighted share of the query's terms (English; minus `ignored`) held by a sentence or its
 * turn, each sentence's words read in its own language (`languageOf`, English unless given).
 */
function plainCoverage(
  sentences: readonly Sentence[],
  query: string,
  ignored: ReadonlySet<string>,
  conversationId?: string,
  languageOf: (s: Sentence) => string | undefined = () => 'en',
) {
  const termsOf = (text: string) => contentTerms(text, 'en')
  const stems = (s: Sentence) => new Set(indexTerms(s.text, languageOf(s)))
  const turnStems = (s: Sentence) =>
    new Set(sentences.filter((o) => o.messageId === s.messageId).flatMap((o) => [...stems(o)]))
  const terms = [...termsOf(query)].filter((t) => !ignored.has(t))
  const idf = (term: string) => {
    const df = sentences.filter((s) => stems(s).has(term)).length
    return { df, idf: Math.log(1 + (sentences.length - df + 0.5) / (df + 0.5)) }
  }
  const total = terms.reduce((sum, t) => sum + idf(t).idf, 0)
  const known = terms.reduce((sum, t) => sum + (idf(t).df > 0 ? idf(t).idf : 0), 0)
  const coverageOf = (s: Sentence) =>
    conversationId !== undefined && s.conversationId !== conversationId
      ? 0
      : terms.filter((t) => stems(s).has(t) || turnStems(s).has(t)).reduce((sum, t) => sum + idf(t).idf, 0) / total
  return { reach: total > 0 ? known / total : 1, coverageOf }
}

describe('termCoverage', () => {
  const sentences = [
    part(1, 'a', 0, 'We adopted a puppy from the shelter.'),
    part(2, 'a', 1, 'She is called Pixie.'),
    part(3, 'b', 0, 'The shelter needs volunteers on Sundays.', 'Bob'),
    part(4, 'c', 0, 'Thanks, Ann!', 'Bob'),
    part(5, 'd', 0, 'Adopted cats sleep all day.', 'Ann', 'c2'),
  ]
  const index = new LexicalIndex()
  index.add(sentences)

  it('weighs each query term by its idf; a sentence covers the terms it or its turn holds, speakers’ names left out', () => {
    const query = 'Where did Ann adopt her puppy, and what is it called?'
    const coverage = termCoverage(index, query, 'en', undefined, new Set(['ann']))
    const plain = plainCoverage(sentences, query, new Set(['ann']))
    expect(coverage.reach).toBeCloseTo(plain.reach, 12)
    for (const s of sentences) expect(coverage.coverageOf(s.sid)).toBeCloseTo(plain.coverageOf(s), 12)
    expect(coverage.coverageOf(2)).toBe(coverage.coverageOf(1))
    expect(coverage.coverageOf(4)).toBe(0)
    expect(coverage.reach).toBe(1)
  })

  it('a term no sentence holds counts at standInCredit for sentences holding a stand-in for it; reach stays as it was', () => {
    const query = 'Where did Ann adopt her dachshund?'
    const plain = termCoverage(index, query, 'en', undefined, new Set(['ann']))
    const widened = termCoverage(index, query, 'en', undefined, new Set(['ann']), [
      { word: 'dachshund', standIns: ['puppy', 'cats'] },
    ])
    expect(widened.reach).toBe(plain.reach)
    const idf = (df: number) => Math.log(1 + (sentences.length - df + 0.5) / (df + 0.5))
    const total = idf(2) + idf(0) // adopt (sentences 1 and 5), dachshund (none)
    // Sentence 1 holds "adopted" and the stand-in "puppy"; sentence 2 shares its turn; 5 holds "adopted" and "cats".
    expect(widened.coverageOf(1)).toBeCloseTo((idf(2) + RANK_TUNING.standInCredit * idf(0)) / total, 12)
    expect(widened.coverageOf(2)).toBeCloseTo(widened.coverageOf(1), 12)
    expect(widened.coverageOf(5)).toBeCloseTo((idf(2) + RANK_TUNING.standInCredit * idf(0)) / total, 12)
    expect(plain.coverageOf(1)).toBeCloseTo(idf(2) / total, 12)
    // A stand-in for a word the history does use changes nothing: that word is matched as it is.
    expect(
      termCoverage(index, 'puppy', 'en', undefined, new Set(), [{ word: 'puppy', standIns: ['shelter'] }]).coverageOf(
        3,
      ),
    ).toBe(0)
  })

  it('lowers reach by the weight of terms no sentence holds, and keeps to the conversation', () => {
    const query = 'puppy kennel dachshund'
    const coverage = termCoverage(index, query, 'en', { conversationId: 'c1' }, new Set())
    const plain = plainCoverage(sentences, query, new Set(), 'c1')
    expect(coverage.reach).toBeCloseTo(plain.reach, 12)
    expect(coverage.reach).toBeLessThan(0.5)
    expect(coverage.coverageOf(5)).toBe(0)
    expect(termCoverage(index, 'adopted', 'en', { conversationId: 'c2' }, new Set()).coverageOf(1)).toBe(0)
    expect(termCoverage(index, 'adopted', 'en', { conversationId: 'nowhere' }, new Set()).coverageOf(1)).toBe(0)
  })

  it('equals the plain definition on a random history, also after a removal', () => {
    const next = seededRandom(3)
    const words = ['violin', 'lisbon', 'boiler', 'plumber', 'marathon', 'salmon', 'budget', 'kanji', 'the', 'wow']
    const random: Sentence[] = []
    for (let sid = 1; sid <= 300; sid++) {
      const text = Array.from(
        { length: 1 + Math.floor(next() * 5) },
        () => words[Math.floor(next() * words.length)],
      ).join(' ')
      random.push(part(sid, `m${Math.ceil(sid / 3)}`, (sid - 1) % 3, text))
    }
    const lexical = new LexicalIndex()
    lexical.add(random)
    // Removing a sentence drops its turn's document: sentences 1, 2 and 6 are left without one, so they are not compared.
    lexical.remove([3, 4, 5])
    const kept = random.filter((s) => s.sid < 3 || s.sid > 5)
    for (const query of ['violin marathon', 'salmon budget kanji zebra', 'wow']) {
      const coverage = termCoverage(lexical, query, 'en', undefined, new Set())
      const plain = plainCoverage(kept, query, new Set(), undefined, (s) => lexical.languageOf(s.sid))
      expect(coverage.reach).toBeCloseTo(plain.reach, 12)
      for (const s of kept.filter((s) => s.sid > 6))
        expect(coverage.coverageOf(s.sid)).toBeCloseTo(plain.coverageOf(s), 12)
    }
  })
})
