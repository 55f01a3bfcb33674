export { splitSentences, type SentenceSpan, type SplitOptions } from './split-sentences'
export { fuseRanks, type FusedRank } from './fuse-ranks'
export { STOP_WORDS, stemEnglish, indexTerm, queryTerm } from './english-terms'
export { INFORMATIVE_TERMS, PENALTY_PER_MISSING_TERM, contentTermCount, shortSentencePenalty, penaliseShortSentences } from './short-sentence-penalty'
export { interleaveRankings } from './interleave-rankings'
export { withAnswerNeighbours, isQuestion } from './answer-neighbours'
export { distinctSentences, normaliseSentence } from './distinct-sentences'
export { withLaterUpdates, isLikelyUpdate, contentTerms, UPDATE_OVERLAP } from './later-updates'
export { untilRelevanceCliff, isRelevanceCliff, CLIFF_RATIO, CLIFF_WINDOW, type CliffOptions } from './relevance-cliff'
export type { ScoredSentence } from './scored-sentence'
export {
  renderContext,
  formatUtcDate,
  compareChronological,
  sentenceSeparator,
  lineSeparator,
  lineLabel,
  lineDate,
  SENTENCE_JOIN,
  SENTENCE_GAP,
  LINE_JOIN,
  LINE_GAP,
  type RenderOptions,
} from './render-context'
export { packBudget, type PackOptions, type PackResult } from './pack-budget'
