import { describe, expect, it } from 'vitest'
import type { Sentence } from '../../src/types'
import { LexicalIndex } from '../../worker/index/lexical/lexical-index'
import { SentenceCatalog } from '../../worker/index/sentence-catalog'
import { VectorIndex } from '../../worker/index/vector/vector-index'
import { rankCandidates } from '../../worker/rank/rank-candidates'
import { RANK_TUNING } from '../../worker/rank/rank-tuning'
import { type MessageRecord, sentencesOf, toMessageRecord } from '../../worker/store/message-record'
import { seededRandom } from '../../worker/util/seeded-random'

const REQUEST = 'Which seafood gives me an allergic reaction?'
const STATEMENT = "Turns out I can't eat prawns any more: I came out in hives after the paella."
const DIM = 32

/**
 * A chat where the user states a fact in words the question does not use (dense rank 3) and ten replies echo the
 * question's words ("allergic reaction", "seafood") further down the dense ranking (40–49), as the paraphrase set's
 * misses do; every other line is filler. One sentence per message; `echoRole` says who the echoes are.
 */
function chat(echoRole: string, otherRole = 'user') {
  const next = seededRandom(5)
  const query = unit(Array.from({ length: DIM }, () => next() * 2 - 1))
  // A unit vector at cosine `cos` to the query.
  const at = (cos: number) => {
    const noise = Array.from({ length: DIM }, () => next() * 2 - 1)
    const along = noise.reduce((sum, x, d) => sum + x * query[d], 0)
    const orthogonal = unit(noise.map((x, d) => x - along * query[d]))
    return query.map((q, d) => cos * q + Math.sqrt(1 - cos * cos) * orthogonal[d])
  }
  const lines: { role: string; content: string }[] = []
  for (let rank = 1; rank <= 200; rank++) {
    if (rank === 3) lines.push({ role: otherRole, content: STATEMENT })
    else if (rank >= 40 && rank < 50)
      lines.push({
        role: echoRole,
        content: `Reply ${rank}: an allergic reaction to seafood needs a word with your GP.`,
      })
    else lines.push({ role: otherRole, content: `Filler line ${rank} about gardening, cooking and trains.` })
  }
  const messages: MessageRecord[] = []
  const sentences: Sentence[] = []
  const vectors = new Float32Array(lines.length * DIM)
  lines.forEach(({ role, content }, i) => {
    const message = toMessageRecord(
      { id: `m${i}`, seq: i + 1, role, content, conversationId: 'c', timestamp: 1_700_000_000_000 + i },
      sentences.length + 1,
    )
    messages.push(message)
    sentences.push(...sentencesOf(message))
    vectors.set(at(0.95 - 0.004 * i), i * DIM)
  })
  const catalog = new SentenceCatalog()
  catalog.add(messages)
  const lexical = new LexicalIndex()
  lexical.add(sentences)
  const index = new VectorIndex(DIM)
  index.add(
    sentences.map((s) => s.sid),
    vectors,
    () => 'c',
  )
  const sources = { catalog, vectors: index, lexical }
  return (tuning = RANK_TUNING) =>
    [...rankCandidates('hybrid', [{ text: REQUEST, vector: Float32Array.from(query) }], 'c', sources, tuning)].map(
      (candidate) => ({ text: catalog.get(candidate.sid)!.text, dense: candidate.ranks?.dense }),
    )
}

function unit(values: number[]): number[] {
  const norm = Math.hypot(...values)
  return values.map((x) => x / norm)
}

const isEcho = (text: string) => text.startsWith('Reply ')
const placeOf = (ranked: { text: string }[]) => ranked.findIndex((c) => c.text === STATEMENT)

describe('hybrid: the assistant’s word matches count at assistantLexicalShare', () => {
  it('ranks the user’s statement, third by meaning, above the assistant’s echoes of the question’s words', () => {
    const ranked = chat('assistant')()
    expect(ranked[placeOf(ranked)].dense).toBe(3)
    expect(placeOf(ranked)).toBe(2)
    expect(ranked.slice(0, placeOf(ranked)).some((c) => isEcho(c.text))).toBe(false)
  })

  it('is what moves it: in full, or when the user says the same lines, the echoes rank above the statement', () => {
    const inFull = chat('assistant')({ ...RANK_TUNING, assistantLexicalShare: 1 })
    expect(inFull.slice(0, placeOf(inFull)).filter((c) => isEcho(c.text)).length).toBeGreaterThan(0)
    const saidByUser = chat('user')()
    expect(saidByUser.slice(0, placeOf(saidByUser)).filter((c) => isEcho(c.text)).length).toBeGreaterThan(0)
  })

  it('leaves a conversation between named speakers as it was', () => {
    const named = chat('Melanie', 'Caroline')
    expect(named()).toEqual(named({ ...RANK_TUNING, assistantLexicalShare: 1 }))
  })
})
