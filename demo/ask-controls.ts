import type { BuildContextOptions, Strategy } from '../src/types'
import { budgetAt, maxBudget, positionOf } from './budget-scale'
import { element, formatCount, formatShare, make } from './dom'

/** Everything the Ask form sets: the request and the `buildContext` options. */
export interface AskSettings {
  request: string
  budget: number
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
  budget: 2000,
  strategy: 'hybrid',
  recentTurns: 0,
  conversationId: '',
  adaptiveStop: false,
  followUpdates: false,
}

/** The `buildContext` options of these settings, at `budget` (the Ask budget unless given). */
export function contextOptions(settings: AskSettings, budget = settings.budget): BuildContextOptions {
  const options: BuildContextOptions = { budget, strategy: settings.strategy, recentTurns: settings.recentTurns }
  if (settings.conversationId !== '') options.conversationId = settings.conversationId
  if (settings.adaptiveStop) options.adaptiveStop = true
  if (settings.followUpdates) options.followUpdates = true
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
    budget: pick('budget', (v) => count(v) && (v as number) > 0),
    strategy: pick('strategy', (v) => STRATEGIES.includes(v as Strategy)),
    recentTurns: pick('recentTurns', count),
    conversationId: pick('conversationId', (v) => typeof v === 'string'),
    adaptiveStop: pick('adaptiveStop', (v) => typeof v === 'boolean'),
    followUpdates: pick('followUpdates', (v) => typeof v === 'boolean'),
  }
}

/** What changed: the budget alone (the slider, which redraws only the context) or anything else. */
export type AskChange = 'budget' | 'query'

export interface AskControls {
  settings(): AskSettings
  /** The history's size in the current scope: the slider's range and the % field follow it. */
  setHistoryChars(chars: number): void
  /** The conversations the scope menu offers. */
  setConversations(ids: readonly string[]): void
}

/**
 * The Ask form: request, example requests, the budget (a logarithmic slider, characters, % of the history),
 * strategy, recent turns, scope and the opt-in options. Every change is reported at once (typing after a short
 * pause) and saved, so a reload comes back to the same question.
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
  const strategy = element<HTMLSelectElement>('strategy')
  const recentTurns = element<HTMLInputElement>('recent-turns')
  const scope = element<HTMLSelectElement>('scope')
  const adaptiveStop = element<HTMLInputElement>('adaptive-stop')
  const followUpdates = element<HTMLInputElement>('follow-updates')
  let historyChars = 0

  function settings(): AskSettings {
    return {
      request: request.value,
      budget: Math.max(1, Math.round(Number(budget.value)) || DEFAULTS.budget),
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

  /** Shows a budget in the three fields, leaving alone the one being edited. */
  function showBudget(chars: number, editing?: HTMLInputElement): void {
    const max = maxBudget(historyChars)
    range.max = '1000'
    if (editing !== range) range.value = String(positionOf(chars, max))
    if (editing !== budget) budget.value = String(chars)
    if (editing !== percent)
      percent.value = historyChars > 0 ? String(Math.round((chars / historyChars) * 1000) / 10) : ''
    range.setAttribute(
      'aria-valuetext',
      `${formatCount(chars)} characters, ${formatShare(chars, historyChars)} of the history`,
    )
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
  showBudget(saved.budget)

  range.addEventListener('input', () => {
    const chars = budgetAt(Number(range.value), maxBudget(historyChars))
    showBudget(chars, range)
    changed('budget')
  })
  budget.addEventListener('input', () => {
    if (!(Number(budget.value) > 0)) return
    showBudget(Math.round(Number(budget.value)), budget)
    changed('budget')
  })
  percent.addEventListener('input', () => {
    if (!(Number(percent.value) > 0) || historyChars === 0) return
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
      showBudget(settings().budget)
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
