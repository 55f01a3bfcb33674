import { describe, expect, it } from 'vitest'
import { seededRandom as random } from '../../worker/util/seeded-random'
import { shortSentencePenalty } from '../../worker/rank/short-sentence-penalty'
import { lexicalShare } from '../../worker/rank/lexical-share'
import { termCoverage } from '../../worker/rank/term-coverage'
import { fuseRanks } from '../../oracles/fuse-ranks'
import { penalizeShortSentences } from '../../oracles/penalize-short-sentences'
import type { Sentence } from '../../src/types'
import { LexicalIndex } from '../../worker/index/lexical/lexical-index'
import { sentencesOf, toMessageRecord, type MessageRecord } from '../../worker/store/message-record'
import { rankCandidates } from '../../worker/rank/rank-candidates'
import { SentenceCatalog } from '../../worker/index/sentence-catalog'
import { VectorIndex } from '../../worker/index/vector/vector-index'
import { RANK_TUNING } from '../../worker/rank/rank-tuning'

const WORDS = [
  'violin',
  'lisbon',
  'boiler',
  'plumber',
  'marathon',
  'salmon',
  'budget',
  'kanji',
  'tomato',
  'passport',
  'the',
  'a',
  'wow',
  'thanks',
]

/** A history whose sentences have 1–6 words (so short-sentence penalties vary), some repeated exactly (ties), in two conversations. */
function fixture(size: number, dim: number, embedded = size) {
  const next = random(11)
  const messages: MessageRecord[] = []
  const sentences: Sentence[] = []
  const vectors = new Float32Array(size * dim)
  for (let i = 0; i < size; i++) {
    const words = Array.from({ length: 1 + Math.floor(next() * 6) }, () => WORDS[Math.floor(next() * WORDS.length)])
    const text = `${words.join(' ')}.`
    const conversationId = i % 3 === 0 ? 'b' : 'a'
    const message = toMessageRecord(
      { id: `m${i}`, seq: i + 1, role: 'user', content: text, conversationId, timestamp: 1_700_000_000_000 + i },
      i + 1,
    )
    messages.push(message)
    sentences.push(...sentencesOf(message))
    for (let d = 0; d < dim; d++) vectors[i * dim + d] = i % 10 === 9 ? vectors[(i - 1) * dim + d] : next() * 2 - 1
  }
  const catalog = new SentenceCatalog()
  catalog.add(messages)
  const lexical = new LexicalIndex()
  lexical.add(sentences)
  const index = new VectorIndex(dim)
  index.add(
    sentences.slice(0, embedded).map((s) => s.sid),
    vectors.subarray(0, embedded * dim),
    (sid) => catalog.get(sid)?.conversationId,
  )
  return { catalog, lexical, index, next }
}

/** The ranking as computed before it was made lazy: sort every row, penalise, fuse the full lists. */
function reference(
  strategy: 'dense' | 'hybrid',
  sources: ReturnType<typeof fixture>,
  text: string,
  vector: Float32Array,
  conversationId?: string,
) {
  const hits = sources.index.search(vector, sources.index.size, { conversationId })
  const dense = penalizeShortSentences(
    hits,
    (hit) => shortSentencePenalty(sources.catalog.get(hit.sid)!.text, sources.lexical.languageOf(hit.sid)),
    true,
  )
  if (strategy === 'dense') return dense
  const lexical = sources.lexical.search(text, { conversationId }).slice(0, RANK_TUNING.hybridLexicalDepth)
  // Each lexical hit weighs its lexical share: the words it covers, the vocabulary's reach, its dense rank.
  const language = sources.lexical.requestLanguage(text, conversationId)
  const coverage = termCoverage(sources.lexical, text, language, { conversationId }, new Set())
  const denseRank = new Map(dense.map((h, i) => [h.sid, i + 1]))
  const share = (sid: number) => lexicalShare(coverage.coverageOf(sid), coverage.reach, denseRank.get(sid))
  const absent = RANK_TUNING.lexicalListEnd ? RANK_TUNING.lexicalListEndMin : undefined
  const lists = [dense.map((h) => h.sid), lexical.map((h) => h.sid)]
  return fuseRanks(lists, undefined, [undefined, share], [undefined, absent]).map((f) => ({
    sid: f.key,
    score: f.score,
  }))
}

describe('rankCandidates', () => {
  it('dense and hybrid equal the full sort-and-fuse ranking, in order and score, with and without a conversation filter', () => {
    const sources = fixture(3000, 24)
    for (let q = 0; q < 8; q++) {
      const vector = Float32Array.from({ length: 24 }, () => sources.next() * 2 - 1)
      const text = `${WORDS[q]} ${WORDS[(q * 3 + 1) % 10]}`
      for (const strategy of ['dense', 'hybrid'] as const) {
        for (const conversationId of [undefined, 'b']) {
          const expected = reference(strategy, sources, text, vector, conversationId)
          const ranked = [
            ...rankCandidates(strategy, [{ text, vector }], conversationId, {
              catalog: sources.catalog,
              vectors: sources.index,
              lexical: sources.lexical,
            }),
          ]
          expect(ranked.map((c) => c.sid)).toEqual(expected.map((h) => h.sid))
          expect(ranked.map((c) => c.score)).toEqual(expected.map((h) => h.score))
        }
      }
    }
  })

  it('hybrid ranks lexical hits without a vector yet (the embedding backlog) after the fused ones, as fuseRanks does', () => {
    const sources = fixture(3000, 24, 2200)
    for (let q = 0; q < 4; q++) {
      const vector = Float32Array.from({ length: 24 }, () => sources.next() * 2 - 1)
      const text = `${WORDS[q + 2]} ${WORDS[(q * 5 + 3) % 10]}`
      const expected = reference('hybrid', sources, text, vector)
      const ranked = [
        ...rankCandidates('hybrid', [{ text, vector }], undefined, {
          catalog: sources.catalog,
          vectors: sources.index,
          lexical: sources.lexical,
        }),
      ]
      expect(ranked.map((c) => c.sid)).toEqual(expected.map((h) => h.sid))
      expect(ranked.map((c) => c.score)).toEqual(expected.map((h) => h.score))
    }
  })

  it(`hybrid fuses the full dense ranking with the best ${RANK_TUNING.hybridLexicalDepth} lexical hits`, () => {
    const sources = fixture(7000, 8)
    const vector = Float32Array.from({ length: 8 }, () => sources.next() * 2 - 1)
    const text = 'violin lisbon boiler'
    expect(sources.lexical.search(text).length).toBeGreaterThan(RANK_TUNING.hybridLexicalDepth)
    const expected = reference('hybrid', sources, text, vector)
    const ranked = [
      ...rankCandidates('hybrid', [{ text, vector }], undefined, {
        catalog: sources.catalog,
        vectors: sources.index,
        lexical: sources.lexical,
      }),
    ]
    expect(ranked.map((c) => c.sid)).toEqual(expected.map((h) => h.sid))
    expect(ranked.map((c) => c.score)).toEqual(expected.map((h) => h.score))
  })

  it('several queries: each sentence once, with its best score over the queries', () => {
    const sources = fixture(800, 16)
    const queries = ['violin lisbon', 'boiler'].map((text) => ({
      text,
      vector: Float32Array.from({ length: 16 }, () => sources.next() * 2 - 1),
    }))
    const ranked = [
      ...rankCandidates('hybrid', queries, undefined, {
        catalog: sources.catalog,
        vectors: sources.index,
        lexical: sources.lexical,
      }),
    ]
    expect(new Set(ranked.map((c) => c.sid)).size).toBe(800)
    const lists = queries.map(
      (q) => new Map(reference('hybrid', sources, q.text, q.vector).map((h) => [h.sid, h.score])),
    )
    for (const candidate of ranked.slice(0, 50))
      expect(candidate.score).toBe(Math.max(...lists.map((l) => l.get(candidate.sid) ?? -Infinity)))
    expect(ranked.slice(0, 2).map((c) => c.sid)).toEqual(
      queries.map((q) => reference('hybrid', sources, q.text, q.vector)[0].sid),
    )
  })

  it('says why each candidate is there: its rank in each ranking, its fused score in hybrid, and the query that found it', () => {
    const sources = fixture(1500, 16, 1300)
    const vector = Float32Array.from({ length: 16 }, () => sources.next() * 2 - 1)
    const text = 'violin salmon'
    const all = { catalog: sources.catalog, vectors: sources.index, lexical: sources.lexical }
    const dense = penalizeShortSentences(
      sources.index.search(vector, sources.index.size),
      (hit) => shortSentencePenalty(sources.catalog.get(hit.sid)!.text, sources.lexical.languageOf(hit.sid)),
      true,
    )
    const denseRank = new Map(dense.map((h, i) => [h.sid, i + 1]))
    const lexicalRank = new Map(sources.lexical.search(text).map((h, i) => [h.sid, i + 1]))
    const hybrid = [...rankCandidates('hybrid', [{ text, vector }], undefined, all)]
    expect(hybrid.some((c) => c.ranks?.lexical !== undefined && c.ranks.dense === undefined)).toBe(true)
    for (const candidate of hybrid) {
      expect(candidate.ranks).toEqual({ lexical: lexicalRank.get(candidate.sid), dense: denseRank.get(candidate.sid) })
      expect(candidate.fused).toBe(candidate.score)
      expect(candidate.query).toBe(0)
    }
    const lexical = [...rankCandidates('lexical', [{ text }], undefined, all)]
    expect(lexical.map((c) => c.ranks)).toEqual(lexical.map((_, i) => ({ lexical: i + 1 })))
    const denseOnly = [...rankCandidates('dense', [{ text, vector }], undefined, all)]
    expect(denseOnly.map((c) => c.ranks)).toEqual(denseOnly.map((_, i) => ({ dense: i + 1 })))
    expect([...lexical, ...denseOnly].every((c) => c.fused === undefined)).toBe(true)
    const twoQueries = [...rankCandidates('lexical', [{ text: 'violin' }, { text: 'boiler' }], undefined, all)]
    expect(twoQueries.slice(0, 4).map((c) => c.query)).toEqual([0, 1, 0, 1])
    for (const candidate of twoQueries)
      expect(sources.catalog.get(candidate.sid)!.text).toMatch(candidate.query === 0 ? /violin/ : /boiler/)
  })
})
