import type { PackResult } from '../../src/core/pack-budget'
import type { ScoredSentence } from '../../src/core/scored-sentence'
import type { ContextTuning } from './context-tuning'
import type { CountTokens } from './token-counter'

/** How a token budget packs: at a number of characters, or a given selection whole (`items`, any order). */
export interface TokenPacker<P extends PackResult = PackResult> {
  atChars(chars: number): P
  withItems(items: readonly ScoredSentence[]): P
  /** The candidates in the order the packer takes them: replayable, since every packing reads them again. */
  candidates: Iterable<ScoredSentence>
}

/** The packing a token budget settled on, what its text counts, and the characters it was packed at. */
export interface TokenPacking<P extends PackResult = PackResult> {
  packed: P
  tokens: number
  chars: number
}

type Tuning = Pick<ContextTuning, 'tokenMinFill' | 'tokenTarget' | 'tokenRounds' | 'tokenTopUps'>

/**
 * Packs to a budget of `tokens` by packing characters (`atChars`, which measures its text exactly in characters) and
 * counting each text it made: token counts do not add up piece by piece (a tokenizer merges across the joins), so the
 * whole text is counted, as it is sent. Each round aims the characters at `tokenTarget` of the budget with the
 * characters per token the last text measured, between the largest packing that fitted and the smallest that did not.
 * A fullest fit still under `tokenMinFill` (a budget of few lines, where one line more goes over) then takes the next candidates
 * that still fit, each counted with the text it joins. Never over the budget.
 */
export function packToTokens<P extends PackResult>(
  packer: TokenPacker<P>,
  count: CountTokens,
  tokens: number,
  startChars: number,
  tuning: Tuning,
): TokenPacking<P> {
  const minTokens = tuning.tokenMinFill * tokens
  let best: TokenPacking<P> | undefined
  let fits = 0
  let over = Number.POSITIVE_INFINITY
  let chars = Math.max(1, Math.floor(startChars))
  // 'exhausted' at some characters means no candidate left fits in them, not that none is left: only when more
  // characters pack nothing more have the candidates run out.
  let exhaustedAt: number | undefined
  for (let round = 0; round < tuning.tokenRounds; round++) {
    const packed = packer.atChars(chars)
    const counted = count(packed.text)
    if (counted <= tokens) {
      const ranOut = packed.stoppedBy === 'exhausted' && exhaustedAt === packed.used
      if (best === undefined || counted > best.tokens) best = { packed, tokens: counted, chars }
      if (counted >= minTokens || ranOut) return best
      if (packed.stoppedBy === 'exhausted') exhaustedAt = packed.used
      fits = Math.max(fits, chars)
    } else over = Math.min(over, chars)
    const perToken = packed.text.length / Math.max(1, counted)
    let next = Math.floor(perToken * tuning.tokenTarget * tokens)
    if (next <= fits || next >= over) next = Math.floor((fits + Math.min(over, 2 * Math.max(fits, 1))) / 2)
    if (next <= fits || next >= over) break
    chars = next
  }
  best ??= shrunkUntilWithin(packer, count, tokens, Math.min(chars, over), tuning.tokenMinFill)
  return toppedUp(best, packer, count, tokens, minTokens, tuning.tokenTopUps)
}

/** Every round went over: fewer characters each time, in proportion to the excess, until a packing fits (none at 0). */
function shrunkUntilWithin<P extends PackResult>(
  packer: TokenPacker<P>,
  count: CountTokens,
  tokens: number,
  from: number,
  minFill: number,
): TokenPacking<P> {
  let chars = from
  for (;;) {
    const packed = packer.atChars(chars)
    const counted = count(packed.text)
    if (counted <= tokens || chars === 0) return { packed, tokens: counted, chars }
    chars = Math.floor((chars * tokens * minFill) / counted)
  }
}

/** `packing` with the next candidates that keep it within `tokens`, at most `tries` looked at, until `minTokens`. */
function toppedUp<P extends PackResult>(
  packing: TokenPacking<P>,
  packer: TokenPacker<P>,
  count: CountTokens,
  tokens: number,
  minTokens: number,
  tries: number,
): TokenPacking<P> {
  let best = packing
  if (best.tokens >= minTokens) return best
  const taken = new Set(best.packed.items.map((item) => item.sid))
  for (const candidate of packer.candidates) {
    if (tries-- <= 0 || best.tokens >= minTokens) break
    if (taken.has(candidate.sid)) continue
    taken.add(candidate.sid)
    const packed = packer.withItems([...best.packed.items, candidate])
    const counted = count(packed.text)
    if (counted <= tokens) best = { packed, tokens: counted, chars: Math.max(best.chars, packed.used) }
  }
  return best
}
