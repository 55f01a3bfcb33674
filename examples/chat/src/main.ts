// The chat page: settings, the conversation, and a status line; each exchange is `chatTurn` (chat-turn.ts).
import { createMemory, type Memory } from 'sift-memory'
import { chatTurn, type ChatEndpoint, type Turn } from './chat-turn'

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

/** What the status line says: messages stored, sentences still to embed, the backend, and a background failure if any. */
const memoryState = { messages: 0, pending: 0, backend: '', failure: '' }

function showStatus(): void {
  const { messages, pending, backend, failure } = memoryState
  const indexing = pending > 0 ? `${pending} sentences to index` : 'all indexed'
  status.textContent = `${messages} messages in memory, ${indexing} (${backend})${failure ? `. ${failure}` : ''}`
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

const memory = await createMemory({
  name: 'sift-chat',
  persist: true,
  onProgress: ({ pending, backend, failure }) => {
    Object.assign(memoryState, { pending, backend, failure: failure?.message ?? memoryState.failure })
    showStatus()
  },
})
for (const turn of await storedTurns(memory, SHOWN_TURNS)) {
  turns.push(turn)
  show(turn.role, turn.content)
}
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
