import type { TokenBudget, TokenizerName } from '../src/types'

/** What the Ask budget counts: characters of the context text, or an LLM's tokens by one of the shipped encodings. */
export type BudgetUnit = 'chars' | 'o200k_base' | 'cl100k_base'

export const BUDGET_UNITS: readonly BudgetUnit[] = ['chars', 'o200k_base', 'cl100k_base']

/**
 * The largest token budget the slider offers. A token is about four characters of English, so 8,000 tokens is
 * about the character slider's top for the sample history; the number field takes more.
 */
export const MAX_TOKEN_BUDGET = 8000

/** The token budget a page starts with, and an old saved form (from before tokens) comes back with: about 2,000 characters. */
export const DEFAULT_TOKEN_BUDGET = 500

export function isBudgetUnit(value: unknown): value is BudgetUnit {
  return BUDGET_UNITS.includes(value as BudgetUnit)
}

/** The tokenizer a unit counts with; undefined for characters. */
export function tokenizerOf(unit: BudgetUnit): TokenizerName | undefined {
  return unit === 'chars' ? undefined : unit
}

/** `buildContext`'s budget for `amount` of `unit`: a number of characters, or a `TokenBudget`. */
export function budgetIn(unit: BudgetUnit, amount: number): number | TokenBudget {
  const tokenizer = tokenizerOf(unit)
  return tokenizer === undefined ? amount : { tokens: amount, tokenizer }
}

/** 'characters' or 'tokens', for labels. */
export function unitWord(unit: BudgetUnit): 'characters' | 'tokens' {
  return unit === 'chars' ? 'characters' : 'tokens'
}
