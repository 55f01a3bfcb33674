/** LoCoMo's answerable question categories, as labelled in the data. */
export const CATEGORY_NAMES: Record<number, string> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
}

export interface CategoryRecall {
  /** Share of questions with at least one evidence turn in the context. */
  anyEvidence: number
  /** Share of questions with every evidence turn in the context. */
  allEvidence: number
  n: number
}

/** Recall of one strategy at one budget over all questions asked. */
export interface RecallSummary extends CategoryRecall {
  /** Mean `stats.used` (characters of context). */
  meanChars: number
  /** Mean `stats.fill` (used / budget). */
  meanFill: number
  byCategory: Record<string, CategoryRecall>
}

/** The evidence ids present among the context's message ids, in evidence order. */
export function foundEvidence(evidence: readonly string[], contextMessageIds: Iterable<string>): string[] {
  const present = new Set(contextMessageIds)
  return evidence.filter((id) => present.has(id))
}

interface Counts {
  any: number
  all: number
  n: number
}

/** Accumulates the outcome of each question for one strategy × budget. */
export class RecallTally {
  private readonly total: Counts = { any: 0, all: 0, n: 0 }
  private readonly byCategory = new Map<number, Counts>()
  private chars = 0
  private fill = 0

  /** `found` must be the subset of `evidence` present in the context (see `foundEvidence`); `evidence` must not be empty. */
  record(
    question: { category: number; evidence: readonly string[] },
    found: readonly string[],
    used: number,
    fill: number,
  ): void {
    if (question.evidence.length === 0) throw new Error('a question without evidence cannot be scored')
    const counts = this.byCategory.get(question.category) ?? { any: 0, all: 0, n: 0 }
    this.byCategory.set(question.category, counts)
    for (const target of [this.total, counts]) {
      target.n += 1
      if (found.length > 0) target.any += 1
      if (found.length === question.evidence.length) target.all += 1
    }
    this.chars += used
    this.fill += fill
  }

  summary(): RecallSummary {
    const byCategory: Record<string, CategoryRecall> = {}
    for (const category of [...this.byCategory.keys()].sort((a, b) => a - b)) {
      byCategory[CATEGORY_NAMES[category] ?? `category-${category}`] = shares(this.byCategory.get(category)!)
    }
    const n = this.total.n
    return { ...shares(this.total), meanChars: n ? this.chars / n : 0, meanFill: n ? this.fill / n : 0, byCategory }
  }
}

function shares(counts: Counts): CategoryRecall {
  return {
    anyEvidence: counts.n ? counts.any / counts.n : 0,
    allEvidence: counts.n ? counts.all / counts.n : 0,
    n: counts.n,
  }
}
