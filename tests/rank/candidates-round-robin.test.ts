import { describe, expect, it } from 'vitest'
import { seededRandom } from '../../worker/util/seeded-random'
import { LexicalIndex } from '../../worker/index/lexical/lexical-index'
import { SentenceCatalog } from '../../worker/index/sentence-catalog'
import { rankCandidates } from '../../worker/rank/rank-candidates'
import { sentencesOf, toMessageRecord, type MessageRecord } from '../../worker/store/message-record'
import { interleaveRankings } from '../../oracles/interleave-rankings'

const WORDS = ['violin', 'lisbon', 'boiler', 'plumber', 'marathon', 'salmon', 'kanji', 'tomato', 'the', 'a']

/** A lexical-only history (the round-robin does not depend on the strategy): one sentence per message, two conversations. */
function lexicalSources(size: number) {
  const next = seededRandom(7)
  const messages: MessageRecord[] = []
  for (let i = 0; i < size; i++) {
    const words = Array.from({ length: 1 + Math.floor(next() * 5) }, () => WORDS[Math.floor(next() * WORDS.length)])
    messages.push(
      toMessageRecord(
        {
          id: `m${i}`,
          seq: i + 1,
          role: 'user',
          content: `${words.join(' ')}.`,
          conversationId: i % 3 === 0 ? 'b' : 'a',
          timestamp: 1_700_000_000_000 + i,
        },
        i + 1,
      ),
    )
  }
  const catalog = new SentenceCatalog()
  catalog.add(messages)
  const lexical = new LexicalIndex()
  lexical.add(messages.flatMap(sentencesOf))
  return { catalog, lexical, vectors: undefined }
}

describe('rankCandidates with several queries', () => {
  const sources = lexicalSources(400)

  it('takes the 1st hit of each query, then the 2nd of each, and so on, each sentence once', () => {
    const queryTexts = [['violin'], ['boiler lisbon', 'marathon'], ['salmon', 'violin salmon', 'kanji tomato']]
    for (const texts of queryTexts) {
      for (const conversationId of [undefined, 'b']) {
        const expected = interleaveRankings(
          texts.map((text) => sources.lexical.search(text, { conversationId }).map((hit) => hit.sid)),
        )
        const ranked = [
          ...rankCandidates(
            'lexical',
            texts.map((text) => ({ text })),
            conversationId,
            sources,
          ),
        ].map((candidate) => candidate.sid)
        expect(expected.length).toBeGreaterThan(texts.length)
        expect(ranked).toEqual(expected)
      }
    }
  })
})
