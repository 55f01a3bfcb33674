import { QUESTION_KINDS, type QuestionKind } from './multilingual-set'

/**
 * Per language, strategy and budget: how often a context holds the question's evidence and its answer. The answer
 * is in the context when its string is in `ctx.text`, outside the line labels (`answerInContext`); for an update, the stale value without the
 * newer one is counted too (`staleOnly`), the failure `followUpdates` is for.
 */

/** One question's outcome for one context: each a share between 0 and 1 (a baseline averages several draws). */
export interface AnswerOutcome {
  anyEvidence: number
  answerInContext: number
  /** Update questions only: the stale value is in the context and the answer is not. */
  staleOnly?: number
}

/** Shares over `n` questions. */
export interface AnswerShares {
  n: number
  anyEvidence: number
  answerInContext: number
  /** Over the update questions only. */
  staleOnly?: number
}

/** A language's results at one strategy and budget: over all its questions, and per kind. */
export interface AnswerSummary extends AnswerShares {
  byKind: Partial<Record<QuestionKind, AnswerShares>>
}

/** language → strategy → budget (as a string, like the JSON output) → summary. */
export type AnswerResults = Record<string, Record<string, Record<string, AnswerSummary>>>

interface Sums {
  n: number
  anyEvidence: number
  answerInContext: number
  staleOnly: number
  updates: number
}

const emptySums = (): Sums => ({ n: 0, anyEvidence: 0, answerInContext: 0, staleOnly: 0, updates: 0 })

/**
 * A line's label in a rendered context (`user (2 April 2025): `): an answer such as "2 April" must be found in what
 * was said, not in the date the renderer put before it.
 */
const LINE_LABEL = /^(?:user|assistant)(?: \([^)\n]*\))?: /gm

/**
 * What a context's text holds of a question, outside the line labels: `evidenceFound` is whether any evidence
 * message has a sentence in it.
 */
export function answerOutcome(
  question: { answer: string; kind: QuestionKind; stale?: string },
  text: string,
  evidenceFound: boolean,
): AnswerOutcome {
  const said = text.replace(LINE_LABEL, '')
  const answer = said.includes(question.answer)
  const outcome: AnswerOutcome = { anyEvidence: evidenceFound ? 1 : 0, answerInContext: answer ? 1 : 0 }
  if (question.kind === 'update' && question.stale !== undefined)
    outcome.staleOnly = !answer && said.includes(question.stale) ? 1 : 0
  return outcome
}

export class AnswerTally {
  private readonly sums = new Map<string, Sums>()

  record(language: string, strategy: string, budget: number, kind: QuestionKind, outcome: AnswerOutcome): void {
    for (const group of [kind, 'all']) {
      const key = JSON.stringify([language, strategy, budget, group])
      const sums = this.sums.get(key) ?? emptySums()
      this.sums.set(key, sums)
      sums.n++
      sums.anyEvidence += outcome.anyEvidence
      sums.answerInContext += outcome.answerInContext
      if (outcome.staleOnly !== undefined) {
        sums.updates++
        sums.staleOnly += outcome.staleOnly
      }
    }
  }

  results(): AnswerResults {
    const results: AnswerResults = {}
    for (const [key, sums] of this.sums) {
      const [language, strategy, budget, group] = JSON.parse(key) as [string, string, number, string]
      if (group !== 'all') continue
      const byKind: AnswerSummary['byKind'] = {}
      for (const kind of QUESTION_KINDS) {
        const kindSums = this.sums.get(JSON.stringify([language, strategy, budget, kind]))
        if (kindSums) byKind[kind] = shares(kindSums)
      }
      results[language] ??= {}
      results[language][strategy] ??= {}
      results[language][strategy][String(budget)] = { ...shares(sums), byKind }
    }
    return results
  }
}

function shares(sums: Sums): AnswerShares {
  return {
    n: sums.n,
    anyEvidence: sums.anyEvidence / sums.n,
    answerInContext: sums.answerInContext / sums.n,
    ...(sums.updates > 0 ? { staleOnly: sums.staleOnly / sums.updates } : {}),
  }
}
