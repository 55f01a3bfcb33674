import { SiftError } from '../errors'
import {
  compareChronological,
  lineDate,
  lineLabel,
  lineSeparator,
  renderContext,
  renderedSentence,
  sentenceSeparator,
  type RenderOptions,
} from './render-context'
import type { ScoredSentence } from './scored-sentence'

/** How `packBudget` fills its budget. */
export interface PackOptions {
  /**
   * Characters of rendered text (labels, dates and gap markers included). Never exceeded. `Infinity` takes everything.
   *
   * Range: a number ≥ 0, `Infinity` included; anything else is refused with `INVALID_INPUT`.
   */
  budget: number
  /**
   * Stop once the rendered length reaches `minFill × budget`. The last 10% would mostly go to weakly relevant
   * sentences, and stopping early keeps the number of candidates to rank and fetch small. 1 fills as far as the
   * candidates allow (looking at all of them unless one fills the budget exactly).
   *
   * Range: a number from 0 to 1; anything else is refused with `INVALID_INPUT`.
   *
   * @defaultValue `0.9`
   */
  minFill?: number
  /**
   * How the text is rendered; the budget is measured on exactly this rendering.
   *
   * @defaultValue `{}`: `RenderOptions`' defaults
   */
  render?: RenderOptions
  /**
   * Items that go in first, in the given order (e.g. recent turns newest-first): all of them when they fit
   * together, else each only if it fits. All are offered even once `minFill` is reached.
   *
   * @defaultValue none
   */
  offeredFirst?: readonly ScoredSentence[]
  /**
   * The former name of `offeredFirst`, still accepted; `offeredFirst` wins when both are given.
   *
   * @defaultValue none
   * @deprecated Use `offeredFirst`: "pinned" names the app's pins (`Memory.pin`), which these items are not.
   */
  pinned?: readonly ScoredSentence[]
}

/** What `packBudget` packed. */
export interface PackResult {
  /** The packed sentences, chronological. */
  items: ScoredSentence[]
  /** `renderContext(items, render)`: exactly what was measured. */
  text: string
  /** `text.length`, never more than the budget. */
  used: number
  /** 'budget': `used ≥ minFill × budget`; 'exhausted': every candidate was looked at and the fill stayed below that. */
  stoppedBy: 'budget' | 'exhausted'
  /** Candidates looked at (offered first + ranked), duplicates and ones that did not fit included. */
  considered: number
}

/**
 * Takes the items offered first, then ranked candidates in order; skips one whose addition would push the rendered
 * text over the budget (the length change is computed exactly from its neighbours in chronological order, without
 * re-rendering); stops once `used ≥ minFill × budget` or candidates run out. The items offered first are all
 * offered, whatever the fill. Duplicate sids are ignored. `ranked` may be a lazy iterable: it is pulled only while the
 * budget is not yet full.
 */
export function packBudget(ranked: Iterable<ScoredSentence>, options: PackOptions): PackResult {
  const { budget, minFill = 0.9, render = {} } = options
  const first = options.offeredFirst ?? options.pinned ?? []
  if (typeof budget !== 'number' || !(budget >= 0)) {
    throw new SiftError('INVALID_INPUT', `packBudget: budget must be a number ≥ 0, got ${budget}.`)
  }
  if (typeof minFill !== 'number' || !(minFill >= 0 && minFill <= 1)) {
    throw new SiftError('INVALID_INPUT', `packBudget: minFill must be between 0 and 1, got ${minFill}.`)
  }
  const threshold = minFill * budget
  const packed = packFirst(first, budget, render)
  let considered = first.length
  let stoppedBy: PackResult['stoppedBy'] = packed.used >= threshold ? 'budget' : 'exhausted'
  if (stoppedBy === 'exhausted') {
    for (const candidate of ranked) {
      considered++
      packed.add(candidate, budget)
      if (packed.used >= threshold) {
        stoppedBy = 'budget'
        break
      }
    }
  }
  return { items: packed.items, text: renderContext(packed.items, render), used: packed.used, stoppedBy, considered }
}

/**
 * All the items offered first when they fit together, else each in the given order if it fits. Trying the whole set first
 * matters because the rendered length is not monotonic: a short sentence filling a ' […] ' gap shortens the text,
 * so a set can fit while one of its subsets does not.
 */
function packFirst(first: readonly ScoredSentence[], budget: number, render: RenderOptions): PackedText {
  const all = new PackedText(render)
  for (const item of first) all.add(item)
  if (all.used <= budget) return all
  const fitting = new PackedText(render)
  for (const item of first) fitting.add(item, budget)
  return fitting
}

/** Chronologically sorted selection that tracks the exact length `renderContext` would give it. */
class PackedText {
  readonly items: ScoredSentence[] = []
  used = 0
  /** The line date of each item in `items` (same positions). */
  private readonly dates: string[] = []
  private readonly sids = new Set<number>()
  private readonly render: RenderOptions

  constructor(render: RenderOptions) {
    this.render = render
  }

  /** Adds `item` unless it is already in or would push the length over `budget`. */
  add(item: ScoredSentence, budget = Infinity): void {
    if (this.sids.has(item.sid)) return
    const at = this.insertionPoint(item)
    const date = lineDate(item, this.render)
    const length = this.used + this.lengthDelta(item, date, at)
    if (length > budget) return
    this.items.splice(at, 0, item)
    this.dates.splice(at, 0, date)
    this.sids.add(item.sid)
    this.used = length
  }

  /** First position whose item comes chronologically after `item`. */
  private insertionPoint(item: ScoredSentence): number {
    let low = 0
    let high = this.items.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if (compareChronological(this.items[middle], item) <= 0) low = middle + 1
      else high = middle
    }
    return low
  }

  /** How much longer the rendering gets when `item` goes in at position `at`; only its neighbours can change. */
  private lengthDelta(item: ScoredSentence, date: string, at: number): number {
    const previous: ScoredSentence | undefined = this.items[at - 1]
    const next: ScoredSentence | undefined = this.items[at]
    const nextInLine = next !== undefined && next.seq === item.seq
    if (previous !== undefined && previous.seq === item.seq) {
      let delta = sentenceSeparator(previous, item).length + renderedSentence(item).length
      if (nextInLine) delta += sentenceSeparator(item, next).length - sentenceSeparator(previous, next).length
      return delta
    }
    // Joining an existing line at its front: the line keeps its label (same message, same role and date).
    if (nextInLine) return renderedSentence(item).length + sentenceSeparator(item, next).length
    const previousDate = previous === undefined ? undefined : this.dates[at - 1]
    let delta = lineLabel(item.role, date, previousDate).length + renderedSentence(item).length
    if (previous !== undefined) delta += lineSeparator(previous, item).length
    if (next !== undefined) {
      const nextDate = this.dates[at]
      delta += lineSeparator(item, next).length
      delta += lineLabel(next.role, nextDate, date).length - lineLabel(next.role, nextDate, previousDate).length
      if (previous !== undefined) delta -= lineSeparator(previous, next).length
    }
    return delta
  }
}
