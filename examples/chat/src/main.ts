// The chat page: settings, the conversation, and a status line; each exchange is `chatTurn` (chat-turn.ts), and sync
// between the user's devices, when a server is set, is sync-setup.ts.
import { createMemory, type Memory, type MemoryOptions } from 'sift-memory'
import { chatTurn, type ChatEndpoint, type Turn } from './chat-turn'
import { openSyncedMemory, savedSyncUrl, watchSync } from './sync-setup'

/** Turns sent verbatim after the context, as the conversation's thread; older turns reach the model through the context. */
const RECENT_TURNS = 6
/** Turns shown after a reload. */
const SHOWN_TURNS = 50
const SETTINGS_KEY = 'sift-chat-settings'

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T
const status = byId<HTMLParagraphElement>('status')
const turnList = byId<HTMLOListElement>('turns')
const chatForm = byId<HTMLFormElement>('chat-form')
const message = byId<HTMLTextAreaElement>('message')
const send = byId<HTMLButtonElement>('send')
const fields = {
  url: byId<HTMLInputElement>('endpoint'),
  model: byId<HTMLInputElement>('model'),
  apiKey: byId<HTMLInputElement>('api-key'),
  budget: byId<HTMLInputElement>('budget'),
}

// The API key is not saved: anything in localStorage is readable by every script this origin ever runs.
const saved = JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? '{}') as {
  url?: string
  model?: string
  budget?: string
}
if (saved.url) fields.url.value = saved.url
if (saved.model) fields.model.value = saved.model
if (saved.budget) fields.budget.value = saved.budget
byId<HTMLFormElement>('settings').addEventListener('change', () => {
  localStorage.setItem(
    SETTINGS_KEY,
    JSON.stringify({ url: fields.url.value, model: fields.model.value, budget: fields.budget.value }),
  )
})

const turns: Turn[] = []

function show(role: Turn['role'] | 'error', content: string): void {
  const item = document.createElement('li')
  item.dataset.role = role
  item.textContent = content
  turnList.append(item)
  item.scrollIntoView({ block: 'nearest' })
}

/**
 * What the status line says: messages stored, sentences still to embed, the backend, a background failure if any,
 * and with sync on, its state.
 */
const memoryState = { messages: 0, pending: 0, backend: '', failure: '', sync: '' }

function showStatus(): void {
  const { messages, pending, backend, failure, sync } = memoryState
  const indexing = pending > 0 ? `${pending} sentences to index` : 'all indexed'
  const notes = [failure, sync].filter(Boolean).map((note) => `. ${note}`)
  status.textContent = `${messages} messages in memory, ${indexing} (${backend})${notes.join('')}`
}

async function refreshStatus(memory: Memory): Promise<void> {
  const { messages, pending, backend, lastFailure } = await memory.stats()
  Object.assign(memoryState, { messages, pending, backend, failure: lastFailure?.message ?? '' })
  showStatus()
}

const isTurnRole = (role: string): role is Turn['role'] => role === 'user' || role === 'assistant'

/** The last `limit` user and assistant turns stored, oldest first, to show the conversation again after a reload. */
async function storedTurns(memory: Memory, limit: number): Promise<Turn[]> {
  const found: Turn[] = []
  // Newest first, a page at a time, until there are enough (other roles are skipped) or the history begins.
  for (let before: number | undefined; found.length < limit; ) {
    const page = await memory.messages({ newestFirst: true, before, limit })
    for (const { role, content } of page.messages)
      if (isTurnRole(role) && found.length < limit) found.push({ role, content })
    if (page.next === undefined) break
    before = page.next
  }
  return found.reverse()
}

/** Shows the stored conversation again, from the top: at open, and when another device's messages arrived. */
async function showStoredTurns(memory: Memory): Promise<void> {
  const stored = await storedTurns(memory, SHOWN_TURNS)
  turns.splice(0, turns.length, ...stored)
  turnList.replaceChildren()
  for (const turn of stored) show(turn.role, turn.content)
}

const options: MemoryOptions = {
  persist: true,
  onProgress: ({ pending, backend, failure }) => {
    Object.assign(memoryState, { pending, backend, failure: failure?.message ?? memoryState.failure })
    showStatus()
  },
}
const syncUrl = savedSyncUrl()
let memory: Memory
if (syncUrl) {
  // Nothing to chat into until the passphrase opened the synced memory.
  message.disabled = send.disabled = true
  status.textContent = 'Sync is on: type the passphrase to open the memory.'
  const opened = await openSyncedMemory(syncUrl, options, (text) => {
    memoryState.sync = status.textContent = text
  })
  memory = opened.memory
  memoryState.sync = opened.state
  message.disabled = send.disabled = false
  if (!opened.refused)
    watchSync(memory, syncUrl, {
      state: (text) => {
        memoryState.sync = text
        showStatus()
      },
      arrived: async () => {
        // Not while a turn is in flight: its request is shown but not stored yet, and would vanish from the list.
        if (send.disabled) return false
        await showStoredTurns(memory)
        await refreshStatus(memory)
        return true
      },
    })
} else memory = await createMemory({ name: 'sift-chat', ...options })
await showStoredTurns(memory)
await refreshStatus(memory)

chatForm.addEventListener('submit', async (event) => {
  event.preventDefault()
  const request = message.value.trim()
  if (!request) return
  const endpoint: ChatEndpoint = {
    url: fields.url.value,
    model: fields.model.value,
    apiKey: fields.apiKey.value || undefined,
  }
  send.disabled = true
  message.value = ''
  show('user', request)
  try {
    const reply = await chatTurn(memory, endpoint, turns.slice(-RECENT_TURNS), request, fields.budget.valueAsNumber)
    turns.push({ role: 'user', content: request }, { role: 'assistant', content: reply })
    show('assistant', reply)
  } catch (error) {
    show('error', (error as Error).message)
  } finally {
    send.disabled = false
    await refreshStatus(memory)
  }
})
message.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey) {
    event.preventDefault()
    chatForm.requestSubmit()
  }
})
