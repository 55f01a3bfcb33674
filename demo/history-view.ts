import type { ContextItem, Memory, StoredMessage } from '../src/types'
import { formatCount, formatDay, make } from './dom'
import { armedButton } from './armed-button'

/** Reads the whole stored history, page by page, in the order it was added (not via a `full` context). */
export async function loadHistory(memory: Memory): Promise<StoredMessage[]> {
  const messages: StoredMessage[] = []
  let after: number | undefined
  do {
    const page = await memory.messages({ after, limit: 1000 })
    messages.push(...page.messages)
    after = page.next
  } while (after !== undefined)
  return messages
}

/** Character ranges of one message picked by a context, in order, with why they were picked. */
interface PickedRange {
  start: number
  end: number
  reason: ContextItem['reason']
}

/** The picked ranges of every message a context touches, keyed by message id. */
function pickedRanges(items: readonly ContextItem[]): Map<string, PickedRange[]> {
  const byMessage = new Map<string, PickedRange[]>()
  for (const { messageId, start, end, reason } of items) {
    const ranges = byMessage.get(messageId) ?? []
    ranges.push({ start, end, reason })
    byMessage.set(messageId, ranges)
  }
  for (const ranges of byMessage.values()) ranges.sort((a, b) => a.start - b.start)
  return byMessage
}

interface Turn {
  message: StoredMessage
  item: HTMLLIElement
  body: HTMLParagraphElement
  pin: HTMLButtonElement
  badge: HTMLElement
  /** The ranges shown now, as a string, so an unchanged message is not redrawn. */
  shown: string
  marks: Map<number, HTMLElement>
}

/** What the buttons of a message ask for; the page does it and tells the view (`render`, `showPins`). */
export interface HistoryActions {
  forget(message: StoredMessage): void
  /** Pin the message when `pin` is true, else unpin it. */
  setPinned(message: StoredMessage, pin: boolean): void
}

export interface HistoryView {
  /** Redraws the list from the stored messages and the ids of the pinned ones (after a load, an add, a forget or at start). */
  render(messages: readonly StoredMessage[], pinned: ReadonlySet<string>): void
  /** Marks the pinned messages (after a pin or an unpin) without redrawing the list, so the focus stays put. */
  showPins(pinned: ReadonlySet<string>): void
  /** Marks what a context picked, and clears the marks of the previous one. */
  highlight(items: readonly ContextItem[]): void
  /** Scrolls the history to a picked sentence (or its message) and moves the focus there. */
  reveal(messageId: string, start: number): void
  /** The messages shown, in the order they were added. */
  messages(): readonly StoredMessage[]
}

/**
 * The full history beside the context: every stored message as text (never as markup), the sentences the current
 * context picked marked in place, a pin button per message (a pinned one is badged and offers "Unpin") and a
 * forget button that asks for a second click.
 */
export function createHistoryView(list: HTMLOListElement, summary: HTMLElement, actions: HistoryActions): HistoryView {
  const turns = new Map<string, Turn>()
  let pinnedIds: ReadonlySet<string> = new Set()
  let shownMessages: readonly StoredMessage[] = []
  let lastItems: readonly ContextItem[] = []

  function drawBody(turn: Turn, ranges: readonly PickedRange[]): void {
    const { content } = turn.message
    const parts: (string | HTMLElement)[] = []
    turn.marks.clear()
    let cursor = 0
    for (const { start, end, reason } of ranges) {
      if (start < cursor) continue
      if (start > cursor) parts.push(content.slice(cursor, start))
      const mark = make('mark', `picked picked-${reason}`, content.slice(start, end))
      mark.tabIndex = -1
      mark.title = `In the context (${reason})`
      turn.marks.set(start, mark)
      parts.push(mark)
      cursor = end
    }
    parts.push(content.slice(cursor))
    turn.body.replaceChildren(...parts)
    turn.item.classList.toggle('has-picked', ranges.length > 0)
  }

  function renderTurn(message: StoredMessage): Turn {
    const item = make('li', 'turn')
    item.id = `turn-${message.seq}`
    item.dataset.messageId = message.id
    const header = make('div', 'turn-header')
    const label = make('span', 'turn-label')
    label.append(
      make('span', 'turn-seq', `#${message.seq}`),
      ' ',
      make('strong', 'role', message.role),
      ` · ${formatDay(message.timestamp)}`,
    )
    if (message.conversationId !== 'default')
      label.append(' · ', make('span', 'turn-conversation', message.conversationId))
    const badge = make('span', 'pinned-badge', 'pinned')
    label.append(badge)
    const pin = make('button', 'pin-turn')
    pin.type = 'button'
    // Disabled until the page has done it and called `showPins`: a second click meanwhile would unpin twice.
    pin.addEventListener('click', () => {
      pin.disabled = true
      actions.setPinned(message, !item.classList.contains('is-pinned'))
    })
    const forget = armedButton(`Forget #${message.seq}`, 'Confirm forget', () => actions.forget(message))
    forget.classList.add('forget-turn')
    const buttons = make('span', 'turn-buttons')
    buttons.append(pin, forget)
    header.append(label, buttons)
    const body = make('p', 'turn-text')
    // Each message finds its own direction (Arabic and Hebrew right to left); the marks are ranges of its own text.
    body.dir = 'auto'
    item.append(header, body)
    const turn: Turn = { message, item, body, pin, badge, shown: '', marks: new Map() }
    drawBody(turn, [])
    drawPin(turn)
    return turn
  }

  function drawPin({ message, item, pin, badge }: Turn): void {
    const pinned = pinnedIds.has(message.id)
    item.classList.toggle('is-pinned', pinned)
    badge.hidden = !pinned
    pin.textContent = pinned ? 'Unpin' : 'Pin'
    pin.setAttribute('aria-label', `${pinned ? 'Unpin' : 'Pin'} #${message.seq}`)
    pin.disabled = false
  }

  function highlight(items: readonly ContextItem[]): void {
    lastItems = items
    const picked = pickedRanges(items)
    for (const turn of turns.values()) {
      const ranges = picked.get(turn.message.id) ?? []
      const key = ranges.map((range) => `${range.start}-${range.end}-${range.reason}`).join(',')
      if (key === turn.shown) continue
      turn.shown = key
      drawBody(turn, ranges)
    }
  }

  return {
    render(messages, pinned) {
      shownMessages = messages
      pinnedIds = pinned
      turns.clear()
      const items = messages.map((message) => {
        const turn = renderTurn(message)
        turns.set(message.id, turn)
        return turn.item
      })
      list.replaceChildren(...items)
      const chars = messages.reduce((sum, message) => sum + message.content.length, 0)
      summary.textContent =
        messages.length === 0
          ? 'Nothing stored yet: load the sample or a file, or type a message.'
          : `${formatCount(messages.length)} messages, ${formatCount(chars)} characters`
      highlight(lastItems)
    },
    showPins(pinned) {
      pinnedIds = pinned
      for (const turn of turns.values()) drawPin(turn)
    },
    highlight,
    reveal(messageId, start) {
      const turn = turns.get(messageId)
      if (!turn) return
      const target = turn.marks.get(start) ?? turn.item
      if (target === turn.item) turn.item.tabIndex = -1
      target.scrollIntoView({ block: 'center', behavior: 'smooth' })
      target.focus({ preventScroll: true })
      target.classList.remove('flash')
      // Restarting the animation needs a reflow between removing and adding the class.
      void target.offsetWidth
      target.classList.add('flash')
    },
    messages: () => shownMessages,
  }
}
