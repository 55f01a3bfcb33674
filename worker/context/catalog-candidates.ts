import type { ScoredSentence } from '../../src/core/scored-sentence'
import type { ContextItem } from '../../src/types'
import type { LexicalIndex } from '../index/lexical/lexical-index'
import type { SentenceCatalog } from '../index/sentence-catalog'
import { scoredSentence } from '../index/sentence-candidate'
import { detectLanguage } from '../text/language-detection'
import { contentTermCount } from '../text/text-analysis'
import type { TurnNeighbours } from './answer-neighbours'

/** Scope sentences in chronological order (`head`) or newest first (`tail`), for the positional baselines and recent turns. */
export function* positionalCandidates(
  catalog: SentenceCatalog,
  sids: readonly number[],
  newestFirst: boolean,
  reason: ContextItem['reason'],
): Generator<ScoredSentence> {
  for (let i = 0; i < sids.length; i++) {
    const candidate = scoredSentence(catalog, sids[newestFirst ? sids.length - 1 - i : i], 0, reason)
    if (candidate) yield candidate
  }
}

/**
 * A candidate's neighbouring turns as the catalog holds them, and its content words as the lexical index counted
 * them (in the sentence's language), for `withAnswerNeighbours`.
 */
export function catalogTurns(catalog: SentenceCatalog, lexical: LexicalIndex): TurnNeighbours {
  return {
    openingOfNext: (sentence) => openingOfNextTurn(catalog, sentence),
    closingOfPrevious: (sentence) => closingOfPreviousTurn(catalog, sentence),
    contentTermsOf: (sentence) =>
      lexical.contentTermCountOf(sentence.sid) ?? contentTermCount(sentence.text, detectLanguage(sentence.text)),
  }
}

/** The first sentence of the turn after `sentence`'s, in its conversation; undefined after the last turn. */
export function openingOfNextTurn(catalog: SentenceCatalog, sentence: ScoredSentence): ScoredSentence | undefined {
  const next = catalog.scope(sentence.conversationId).messages[sentence.turn + 1]
  return next && next.sids.length > 0 ? scoredSentence(catalog, next.sids[0], 0, 'neighbor') : undefined
}

/** The last sentence of the turn before `sentence`'s, in its conversation; undefined before the first turn. */
function closingOfPreviousTurn(catalog: SentenceCatalog, sentence: ScoredSentence): ScoredSentence | undefined {
  const previous = sentence.turn > 0 ? catalog.scope(sentence.conversationId).messages[sentence.turn - 1] : undefined
  return previous && previous.sids.length > 0
    ? scoredSentence(catalog, previous.sids[previous.sids.length - 1], 0, 'neighbor')
    : undefined
}
