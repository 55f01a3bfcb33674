import { createMemory } from '../src/index'
import type { Context, Device, IndexProgress, Memory, MemoryStats, MessageInput, StoredMessage } from '../src/types'
import { arm } from './armed-button'
import { contextOptions, createAskControls, type AskChange, type AskSettings } from './ask-controls'
import { drawFillChart, fillSummary, measureFill, type FillRow } from './budget-chart'
import { createCompareView } from './compare-view'
import { copyContext, createContextView } from './context-view'
import { describeError, element, errorCode, formatCount } from './dom'
import { createFileLoader } from './file-loader'
import { createForgetRequest } from './forget-request'
import { createHistoryView, loadHistory } from './history-view'
import { latestWins, newestShown } from './latest-wins'
import { createSummaryControls } from './summary-controls'
import { germanConversation, sampleConversation, sampleRequests } from './sample-conversation'
import { germanRequests } from './sample-german'
import './test-hook'

window.sift = { createMemory }

const status = element<HTMLParagraphElement>('status')
const loadStatus = element<HTMLParagraphElement>('load-status')
const progress = element<HTMLProgressElement>('progress')
const progressText = element<HTMLSpanElement>('progress-text')

function showError(error: unknown): void {
  status.textContent = `Error — ${describeError(error)}`
}

function showProgress({ done, total, pending, backend, failure }: IndexProgress): void {
  progress.max = Math.max(total, 1)
  progress.value = done
  progressText.textContent = failure
    ? `${failure.code}: ${failure.message}`
    : pending === 0
      ? `all indexed (${backend})`
      : `${formatCount(done)} / ${formatCount(total)} sentences (${backend})`
}

function showStatus(stats: MemoryStats): void {
  status.textContent = `${formatCount(stats.messages)} messages, ${formatCount(stats.sentences)} sentences, ${formatCount(stats.pending)} waiting for a vector · backend ${stats.backend} (${stats.backendReason}) · model ${stats.model}`
}

/** Messages in a scope ('' for all) in time order (by timestamp, ties in the order they were added), as contexts read. */
function turnsInScope(messages: readonly StoredMessage[], conversationId: string): StoredMessage[] {
  return messages
    .filter((message) => conversationId === '' || message.conversationId === conversationId)
    .sort((a, b) => a.timestamp - b.timestamp || a.seq - b.seq)
}

function wire(memory: Memory, name: string): void {
  const contextText = element<HTMLPreElement>('context')
  const pinnedIds = async () => new Set((await memory.pins()).map((pin) => pin.messageId))
  const history = createHistoryView(element('history'), element('history-summary'), {
    forget(message) {
      memory
        .forget({ id: message.id })
        .then(async () => {
          loadStatus.textContent = `Forgot message #${message.seq}.`
          await historyChanged()
        })
        .catch(showError)
    },
    setPinned(message, pin) {
      const change = pin ? memory.pin(message.id) : memory.unpin(message.id)
      change
        .then(async () => {
          loadStatus.textContent = `${pin ? 'Pinned' : 'Unpinned'} message #${message.seq}.`
          history.showPins(await pinnedIds())
          update('query')
        })
        .catch((error: unknown) => {
          showError(error)
          // The stored pins, whatever the failure left: the buttons say them again and take clicks again.
          pinnedIds().then(history.showPins, showError)
        })
    },
  })
  const contextView = createContextView(
    {
      text: contextText,
      stats: element('context-stats'),
      items: element('context-items'),
      count: element('item-count'),
    },
    (messageId, start) => history.reveal(messageId, start),
  )
  const chart = element<SVGSVGElement>('chart')
  let chartData: { turns: StoredMessage[]; rows: FillRow[] } | undefined

  const buildContext = latestWins(
    (settings: AskSettings) => memory.buildContext(settings.request, contextOptions(settings)),
    {
      show(context: Context) {
        contextView.show(context)
        history.highlight(context.items)
      },
      fail: showError,
      busy: (busy) => (document.body.dataset.context = busy ? 'building' : 'ready'),
    },
  )
  const measureChart = latestWins(
    async ({ settings, turns }: { settings: AskSettings; turns: StoredMessage[] }) => {
      const chars = turns.reduce((sum, turn) => sum + turn.content.length, 0)
      return { turns, rows: chars === 0 ? [] : await measureFill(memory, settings, chars) }
    },
    {
      show(data) {
        chartData = data
        drawFillChart(chart, data.turns, data.rows)
        fillSummary(element('chart-summary'), data.turns, data.rows)
      },
      fail: showError,
      busy: (busy) => (document.body.dataset.chart = busy ? 'building' : 'ready'),
    },
  )
  new ResizeObserver(() => chartData && drawFillChart(chart, chartData.turns, chartData.rows)).observe(chart)

  function update(change: AskChange): void {
    const settings = ask.settings()
    const turns = turnsInScope(history.messages(), settings.conversationId)
    ask.setHistoryChars(turns.reduce((sum, turn) => sum + turn.content.length, 0))
    buildContext(settings)
    if (change === 'query') measureChart({ settings, turns })
  }
  const ask = createAskControls(`sift-demo-settings:${name}`, [...sampleRequests, ...germanRequests], update)
  createCompareView(memory, () => ask.settings())

  const summaries = createSummaryControls(memory, {
    messages: () => history.messages(),
    turns: (conversationId) => turnsInScope(history.messages(), conversationId),
    changed: () => update('query'),
  })
  const refreshStatus = newestShown(() => memory.stats(), showStatus)
  const reloadHistory = newestShown(
    () => Promise.all([loadHistory(memory), pinnedIds()]),
    ([messages, pinned]) => {
      history.render(messages, pinned)
      const conversations = [...new Set(messages.map((message) => message.conversationId))]
      ask.setConversations(conversations)
      summaries.setConversations(conversations).catch(showError)
      update('query')
    },
  )
  async function historyChanged(): Promise<void> {
    await reloadHistory()
    await refreshStatus()
  }
  /** New messages are found by their words at once; once embedded, dense ranking sees them too, so ask again. */
  async function added(): Promise<void> {
    await historyChanged()
    await memory.indexed()
    update('query')
    await refreshStatus()
  }

  element<HTMLFormElement>('add-form').addEventListener('submit', (event) => {
    event.preventDefault()
    const content = element<HTMLTextAreaElement>('content')
    const message: MessageInput = { role: element<HTMLSelectElement>('role').value, content: content.value }
    memory
      .add(message)
      .then(() => {
        // Only what was sent: a next message typed while this one was stored stays in the box.
        if (content.value === message.content) content.value = ''
        return added()
      })
      .catch(showError)
  })
  element('sample-hint').textContent =
    `${sampleConversation.length} turns, ${formatCount(sampleConversation.reduce((sum, m) => sum + m.content.length, 0))} characters, March to November 2026: a nurse, her partner and an anxious beagle in Porto.`
  const loadSample = (button: string, messages: MessageInput[], label: string) =>
    element<HTMLButtonElement>(button).addEventListener('click', () => {
      loadStatus.textContent = `Loading ${label}…`
      memory
        .add(messages)
        .then(async () => {
          loadStatus.textContent = `Loaded ${label}: ${messages.length} messages. Embedding them now.`
          await added()
        })
        .catch((error: unknown) => {
          loadStatus.textContent =
            errorCode(error) === 'DUPLICATE_ID'
              ? `${label[0].toUpperCase()}${label.slice(1)} is already loaded (its messages keep fixed ids).`
              : `Nothing was loaded: ${describeError(error)}`
        })
    })
  loadSample('load-sample', sampleConversation, 'the sample')
  loadSample('load-german-sample', germanConversation, 'the German sample')
  createFileLoader(memory, added)
  createForgetRequest(memory, historyChanged)
  arm(element<HTMLButtonElement>('forget-all'), 'Confirm: forget everything', () => {
    loadStatus.textContent = 'Forgetting everything (the database is deleted, the model reloads)…'
    memory
      .clear()
      .then(async (count) => {
        loadStatus.textContent = `Forgot everything: ${formatCount(count)} messages.`
        await historyChanged()
      })
      .catch(showError)
  })
  element<HTMLFormElement>('context-form').addEventListener('submit', (event) => {
    event.preventDefault()
    update('query')
  })
  element<HTMLButtonElement>('copy').addEventListener('click', () => {
    copyContext(contextText, contextView.current(), element('copy-status')).catch(showError)
  })
  historyChanged()
    .then(() => (document.body.dataset.ready = 'true'))
    .catch(showError)
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
  const name = params.get('name') ?? 'sift-demo'
  const memory = await createMemory({
    name,
    device: (params.get('device') as Device | null) ?? 'auto',
    onProgress: showProgress,
  })
  wire(memory, name)
}

start().catch(showError)
