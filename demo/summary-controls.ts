import type { Memory, StoredMessage, Summary } from '../src/types'
import { describeError, element, formatDay, make } from './dom'

/** What the summary controls need from the page: the stored messages, and a way to ask for the context again. */
export interface SummaryControlsHost {
  messages(): readonly StoredMessage[]
  /** A conversation's messages in time order, as contexts read them. */
  turns(conversationId: string): readonly StoredMessage[]
  changed(): void
}

/**
 * "Summary": the user writes a conversation's summary (in an app, its LLM would), and it is set to cover the
 * conversation up to its latest message (`memory.setSummary`). The slot's state is shown as the memory reports it:
 * current (with what it covers), dropped by a forget of a message it covered, or empty.
 */
export function createSummaryControls(memory: Memory, host: SummaryControlsHost) {
  const form = element<HTMLFormElement>('summary-form')
  const conversation = element<HTMLSelectElement>('summary-conversation')
  const text = element<HTMLTextAreaElement>('summary-text')
  const clear = element<HTMLButtonElement>('summary-clear')
  const state = element<HTMLParagraphElement>('summary-state')

  function describeSlot(summary: Summary | undefined): string {
    if (summary === undefined) return 'No summary set for this conversation.'
    if (summary.state === 'dropped')
      return `Dropped on ${formatDay(summary.droppedAt)}: a message it covered was forgotten. Write a new one.`
    const through = host.messages().find((message) => message.id === summary.through)
    return `Set, covering up to message #${through?.seq ?? '?'}${through ? ` (${formatDay(through.timestamp)})` : ''}: ${summary.text.length} characters.`
  }

  async function refresh(): Promise<void> {
    const id = conversation.value
    if (id === '') {
      state.textContent = 'Add messages first: a summary belongs to a conversation.'
      return
    }
    const summary = await memory.summary(id)
    state.textContent = describeSlot(summary)
    state.dataset.state = summary?.state ?? 'none'
    if (summary?.state === 'current' && document.activeElement !== text) text.value = summary.text
  }

  const run = (work: () => Promise<unknown>) =>
    work()
      .then(async () => {
        await refresh()
        host.changed()
      })
      .catch((error: unknown) => {
        state.textContent = `Not changed: ${describeError(error)}`
      })

  form.addEventListener('submit', (event) => {
    event.preventDefault()
    // The conversation's latest message in time order: what a summary written now covers.
    const last = conversation.value === '' ? undefined : host.turns(conversation.value).at(-1)
    if (!last) {
      state.textContent = 'This conversation has no messages to summarise.'
      return
    }
    void run(() => memory.setSummary(conversation.value, text.value, { through: last.id }))
  })
  clear.addEventListener('click', () => void run(() => memory.clearSummary(conversation.value)))
  conversation.addEventListener('change', () => {
    text.value = ''
    void refresh().catch((error: unknown) => (state.textContent = describeError(error)))
  })

  return {
    /** The conversations there are now (the choice is kept when it is still among them), then the slot read again. */
    setConversations(ids: readonly string[]): Promise<void> {
      const chosen = conversation.value
      conversation.replaceChildren(...ids.map((id) => make('option', undefined, id)))
      if (ids.includes(chosen)) conversation.value = chosen
      return refresh()
    },
  }
}
