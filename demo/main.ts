import { createMemory } from '../src/index'
import type { Context, Device, IndexProgress, Memory, MessageInput, Strategy } from '../src/types'
import { sampleConversation, sampleRequests } from './sample-conversation'
import './test-hook'

window.sift = { createMemory }

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id)
  if (!found) throw new Error(`demo: #${id} is missing from index.html`)
  return found as T
}

const status = element<HTMLParagraphElement>('status')
const history = element<HTMLDivElement>('history')
const progress = element<HTMLProgressElement>('progress')
const progressText = element<HTMLSpanElement>('progress-text')
const budgetRange = element<HTMLInputElement>('budget-range')
const budget = element<HTMLInputElement>('budget')
const contextText = element<HTMLPreElement>('context')
const contextStats = element<HTMLDListElement>('context-stats')

function showError(error: unknown): void {
  const code = typeof error === 'object' && error && 'code' in error ? `${String(error.code)}: ` : ''
  status.textContent = `Error — ${code}${error instanceof Error ? error.message : String(error)}`
}

function appendToHistory(role: string, text: string): void {
  const line = document.createElement('p')
  const label = document.createElement('span')
  label.className = 'role'
  label.textContent = `${role}:`
  line.append(label, text)
  history.append(line)
  history.scrollTop = history.scrollHeight
}

function showProgress({ done, total, pending, backend }: IndexProgress): void {
  progress.max = Math.max(total, 1)
  progress.value = done
  progressText.textContent = pending === 0 ? `all indexed (${backend})` : `${done} / ${total} sentences (${backend})`
}

async function refreshStatus(memory: Memory): Promise<void> {
  const stats = await memory.stats()
  status.textContent = `Backend: ${stats.backend} · model: ${stats.model} · ${stats.messages} messages, ${stats.sentences} sentences, ${stats.pending} waiting for a vector`
}

function showContext(context: Context): void {
  contextText.textContent = context.text || '(empty: nothing in the history fits or matches)'
  const { stats } = context
  const rows: [string, string][] = [
    ['fill', `${(stats.fill * 100).toFixed(1)} %`],
    ['used / budget', `${stats.used} / ${stats.budget} characters`],
    ['history', `${stats.historyChars} characters, ${stats.historySentences} sentences`],
    ['share of history', stats.historyChars ? `${((stats.used / stats.historyChars) * 100).toFixed(1)} %` : '—'],
    ['stopped by', stats.stoppedBy],
    ['strategy · backend', `${stats.strategy} · ${stats.backend}`],
    ['time', `${stats.ms.toFixed(1)} ms (request embedding ${stats.queryMs.toFixed(1)} ms)`],
    ['items', String(context.items.length)],
  ]
  contextStats.replaceChildren(
    ...rows.flatMap(([term, value]) => {
      const dt = document.createElement('dt')
      const dd = document.createElement('dd')
      dt.textContent = term
      dd.textContent = value
      return [dt, dd]
    }),
  )
}

async function addMessages(memory: Memory, messages: MessageInput[]): Promise<void> {
  await memory.add(messages)
  for (const message of messages) appendToHistory(message.role, message.content)
  await refreshStatus(memory)
  await memory.indexed()
  await refreshStatus(memory)
}

/** The demo memory lists what it already holds (from an earlier visit) via the `full` strategy. */
async function showStoredHistory(memory: Memory): Promise<void> {
  const stats = await memory.stats()
  if (stats.messages === 0) return
  const stored = await memory.buildContext('history', { strategy: 'full' })
  const line = document.createElement('p')
  line.textContent = stored.text
  history.append(line)
}

function wire(memory: Memory): void {
  element<HTMLFormElement>('add-form').addEventListener('submit', (event) => {
    event.preventDefault()
    const content = element<HTMLTextAreaElement>('content')
    const role = element<HTMLSelectElement>('role').value
    const message = { role, content: content.value }
    content.value = ''
    addMessages(memory, [message]).catch(showError)
  })
  element<HTMLButtonElement>('load-sample').addEventListener('click', () => {
    addMessages(memory, sampleConversation.map((message) => ({ ...message }))).catch(showError)
  })
  element<HTMLButtonElement>('forget-all').addEventListener('click', () => {
    memory
      .forget({ before: Date.now() + 1 })
      .then(() => {
        history.replaceChildren()
        return refreshStatus(memory)
      })
      .catch(showError)
  })
  budgetRange.addEventListener('input', () => (budget.value = budgetRange.value))
  budget.addEventListener('input', () => (budgetRange.value = budget.value))
  const request = element<HTMLTextAreaElement>('request')
  for (const example of sampleRequests) {
    const button = document.createElement('button')
    button.type = 'button'
    button.textContent = example
    button.addEventListener('click', () => (request.value = example))
    element<HTMLDivElement>('examples').append(button)
  }
  element<HTMLFormElement>('context-form').addEventListener('submit', (event) => {
    event.preventDefault()
    memory
      .buildContext(request.value, {
        budget: Number(budget.value),
        strategy: element<HTMLSelectElement>('strategy').value as Strategy,
        recentTurns: Number(element<HTMLInputElement>('recent-turns').value),
      })
      .then(showContext)
      .catch(showError)
  })
}

/**
 * `?device=wasm|webgpu|auto` picks the backend (default auto); `?name=` the IndexedDB database; `?open=0` leaves
 * the page idle with only the test hook, so browser tests drive their own memories without a second model load.
 */
async function start(): Promise<void> {
  const params = new URLSearchParams(location.search)
  if (params.get('open') === '0') {
    status.textContent = 'Idle: test hook only (open=0)'
    return
  }
  const memory = await createMemory({
    name: params.get('name') ?? 'sift-demo',
    device: (params.get('device') as Device | null) ?? 'auto',
    onProgress: showProgress,
  })
  wire(memory)
  await showStoredHistory(memory)
  await refreshStatus(memory)
  document.body.dataset.ready = 'true'
}

start().catch(showError)
