import type { BuildContextOptions, Strategy, TokenBudget } from '../src/types'
import { budgetAt, maxBudget, positionOf } from './budget-scale'
import {
  budgetIn,
  type BudgetUnit,
  DEFAULT_TOKEN_BUDGET,
  isBudgetUnit,
  MAX_TOKEN_BUDGET,
  tokenizerOf,
  unitWord,
} from './budget-unit'
import { element, formatCount, formatShare, make } from './dom'

/** Everything the Ask form sets: the request and the `buildContext` options. */
export interface AskSettings {
  request: string
  /** What the Ask budget counts; the chart and Compare always count characters. */
  unit: BudgetUnit
  /** The budget in characters (the one used when `unit` is `'chars'`). */
  budget: number
  /** The budget in tokens (the one used with a tokenizer), kept apart so switching back and forth loses neither. */
  tokens: number
  strategy: Strategy
  recentTurns: number
  /** '' for every conversation. */
  conversationId: string
  adaptiveStop: boolean
  followUpdates: boolean
}

export const STRATEGIES: readonly Strategy[] = ['hybrid', 'dense', 'lexical', 'head', 'tail', 'full']

const DEFAULTS: AskSettings = {
  request: '',
  unit: 'chars',
  budget: 2000,
  tokens: DEFAULT_TOKEN_BUDGET,
  strategy: 'hybrid',
  recentTurns: 0,
  conversationId: '',
  adaptiveStop: false,
  followUpdates: true,
}

/** The Ask budget as `buildContext` takes it: characters, or tokens with the chosen tokenizer. */
export function askBudget(settings: AskSettings): number | TokenBudget {
  return budgetIn(settings.unit, settings.unit === 'chars' ? settings.budget : settings.tokens)
}

/** The `buildContext` options of these settings, at `budget` (the Ask budget, in its unit, unless given). */
export function contextOptions(
  settings: AskSettings,
  budget: number | TokenBudget = askBudget(settings),
): BuildContextOptions {
  const options: BuildContextOptions = { budget, strategy: settings.strategy, recentTurns: settings.recentTurns }
  if (settings.conversationId !== '') options.conversationId = settings.conversationId
  if (settings.adaptiveStop) options.adaptiveStop = true
  // On by default in buildContext: only turning it off is passed.
  if (!settings.followUpdates) options.followUpdates = false
  return options
}

/** Settings read back from storage, each field checked, so an old or edited entry cannot break the page. */
function settingsFrom(saved: unknown): AskSettings {
  const value = (typeof saved === 'object' && saved !== null ? saved : {}) as Record<string, unknown>
  const pick = <K extends keyof AskSettings>(key: K, valid: (v: unknown) => boolean): AskSettings[K] =>
    valid(value[key]) ? (value[key] as AskSettings[K]) : DEFAULTS[key]
  const count = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0
  return {
    request: pick('request', (v) => typeof v === 'string'),
    // A form saved before the unit choice has neither field, and comes back in characters as it was.
    unit: pick('unit', isBudgetUnit),
    budget: pick('budget', (v) => count(v) && (v as number) > 0),
    tokens: pick('tokens', (v) => count(v) && (v as number) > 0),
    strategy: pick('strategy', (v) => STRATEGIES.includes(v as Strategy)),
    recentTurns: pick('recentTurns', count),
    conversationId: pick('conversationId', (v) => typeof v === 'string'),
    adaptiveStop: pick('adaptiveStop', (v) => typeof v === 'boolean'),
    followUpdates: pick('followUpdates', (v) => typeof v === 'boolean'),
  }
}

/** What changed: the budget alone (the slider or its unit, which redraw only the context) or anything else. */
export type AskChange = 'budget' | 'query'

export interface AskControls {
  settings(): AskSettings
  /** The history's size in the current scope: the slider's range and the % field follow it. */
  setHistoryChars(chars: number): void
  /** The conversations the scope menu offers. */
  setConversations(ids: readonly string[]): void
}

/**
 * The Ask form: request, example requests, the budget (its unit, characters or tokens by a tokenizer; a logarithmic
 * slider; the amount; in characters, the % of the history), strategy, recent turns, scope and the opt-in options.
 * Every change is reported at once (typing after a short pause) and saved, so a reload comes back to the same question.
 */
export function createAskControls(
  storageKey: string,
  examples: readonly string[],
  onChange: (change: AskChange) => void,
): AskControls {
  const request = element<HTMLTextAreaElement>('request')
  const range = element<HTMLInputElement>('budget-range')
  const budget = element<HTMLInputElement>('budget')
  const percent = element<HTMLInputElement>('budget-percent')
  const unit = element<HTMLSelectElement>('budget-unit')
  const unitLabel = element<HTMLSpanElement>('budget-unit-label')
  const strategy = element<HTMLSelectElement>('strategy')
  const recentTurns = element<HTMLInputElement>('recent-turns')
  const scope = element<HTMLSelectElement>('scope')
  const adaptiveStop = element<HTMLInputElement>('adaptive-stop')
  const followUpdates = element<HTMLInputElement>('follow-updates')
  let historyChars = 0
  /** The unit shown, and the other unit's budget, which the one number field does not show meanwhile. */
  let shownUnit: BudgetUnit = 'chars'
  let kept = { chars: DEFAULTS.budget, tokens: DEFAULTS.tokens }

  function settings(): AskSettings {
    const fallback = shownUnit === 'chars' ? DEFAULTS.budget : DEFAULTS.tokens
    const typed = Math.max(1, Math.round(Number(budget.value)) || fallback)
    return {
      request: request.value,
      unit: shownUnit,
      budget: shownUnit === 'chars' ? typed : kept.chars,
      tokens: shownUnit === 'chars' ? kept.tokens : typed,
      strategy: strategy.value as Strategy,
      recentTurns: Math.max(0, Math.round(Number(recentTurns.value)) || 0),
      conversationId: scope.value,
      adaptiveStop: adaptiveStop.checked,
      followUpdates: followUpdates.checked,
    }
  }

  function save(): void {
    try {
      localStorage.setItem(storageKey, JSON.stringify(settings()))
    } catch {
      // Storage refused (private mode, quota): the page works the same, it just forgets the form on reload.
    }
  }

  /** The slider's top in the unit shown: a little over the history in characters, a fixed range in tokens. */
  const sliderMax = () => (shownUnit === 'chars' ? maxBudget(historyChars) : MAX_TOKEN_BUDGET)

  /**
   * Shows a budget of the unit shown in the fields, leaving alone the one being edited. The % of the history is for
   * characters only: the history's size in tokens would take counting all of it with the tokenizer.
   */
  function showBudget(amount: number, editing?: HTMLInputElement): void {
    const inChars = shownUnit === 'chars'
    range.max = '1000'
    if (editing !== range) range.value = String(positionOf(amount, sliderMax()))
    if (editing !== budget) budget.value = String(amount)
    if (editing !== percent)
      percent.value = inChars && historyChars > 0 ? String(Math.round((amount / historyChars) * 1000) / 10) : ''
    percent.closest('label')?.classList.toggle('is-hidden', !inChars)
    unitLabel.textContent = unitWord(shownUnit)
    range.setAttribute(
      'aria-valuetext',
      inChars
        ? `${formatCount(amount)} characters, ${formatShare(amount, historyChars)} of the history`
        : `${formatCount(amount)} tokens (${tokenizerOf(shownUnit)})`,
    )
  }

  /** Switches the fields to another unit, keeping the budget of the one left for when it comes back. */
  function showUnit(next: BudgetUnit): void {
    const current = settings()
    kept = { chars: current.budget, tokens: current.tokens }
    shownUnit = next
    unit.value = next
    showBudget(next === 'chars' ? current.budget : current.tokens)
  }

  function changed(change: AskChange): void {
    save()
    onChange(change)
  }

  const saved = settingsFrom(readSaved(storageKey))
  request.value = saved.request
  strategy.value = saved.strategy
  recentTurns.value = String(saved.recentTurns)
  adaptiveStop.checked = saved.adaptiveStop
  followUpdates.checked = saved.followUpdates
  // The saved scope is offered until the history is listed, so the first context is built in it.
  if (saved.conversationId !== '') scope.append(make('option', undefined, saved.conversationId))
  scope.value = saved.conversationId
  kept = { chars: saved.budget, tokens: saved.tokens }
  shownUnit = saved.unit
  unit.value = saved.unit
  showBudget(saved.unit === 'chars' ? saved.budget : saved.tokens)

  unit.addEventListener('change', () => {
    showUnit(isBudgetUnit(unit.value) ? unit.value : 'chars')
    changed('budget')
  })
  range.addEventListener('input', () => {
    showBudget(budgetAt(Number(range.value), sliderMax()), range)
    changed('budget')
  })
  budget.addEventListener('input', () => {
    if (!(Number(budget.value) > 0)) return
    showBudget(Math.round(Number(budget.value)), budget)
    changed('budget')
  })
  percent.addEventListener('input', () => {
    if (!(Number(percent.value) > 0) || historyChars === 0 || shownUnit !== 'chars') return
    budget.value = String(Math.max(1, Math.round((Number(percent.value) / 100) * historyChars)))
    showBudget(Number(budget.value), percent)
    changed('budget')
  })
  for (const control of [strategy, scope, adaptiveStop, followUpdates, recentTurns])
    control.addEventListener('change', () => changed('query'))
  let typing: ReturnType<typeof setTimeout> | undefined
  request.addEventListener('input', () => {
    clearTimeout(typing)
    typing = setTimeout(() => changed('query'), 300)
  })
  const exampleList = element<HTMLDivElement>('examples')
  for (const example of examples) {
    const button = make('button', 'example', example)
    button.type = 'button'
    button.addEventListener('click', () => {
      request.value = example
      changed('query')
    })
    exampleList.append(button)
  }

  return {
    settings,
    setHistoryChars(chars) {
      // Re-deriving the slider from a rounded budget would snap it back under the user's finger: only a new size moves it.
      if (chars === historyChars) return
      historyChars = chars
      const current = settings()
      showBudget(shownUnit === 'chars' ? current.budget : current.tokens)
    },
    setConversations(ids) {
      const current = scope.value
      const choices = [
        make('option', undefined, 'every conversation'),
        ...ids.map((id) => make('option', undefined, id)),
      ]
      choices[0].value = ''
      scope.replaceChildren(...choices)
      scope.value = ids.includes(current) ? current : ''
      scope.closest('label')?.classList.toggle('is-hidden', ids.length < 2 && scope.value === '')
    },
  }
}

function readSaved(key: string): unknown {
  try {
    return JSON.parse(localStorage.getItem(key) ?? 'null')
  } catch {
    return null
  }
}
