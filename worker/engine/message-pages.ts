import type { MessagePage, StoredMessage } from '../../src/types'
import type { CatalogMessage, CatalogScope, SentenceCatalog } from '../index/sentence-catalog'
import type { MessagesRequest } from '../input/messages-request'

/** What a page reads from the store: the messages' whole text (the catalog only has the sentences), the revision. */
export interface PageSource {
  messagesById(ids: readonly string[]): Promise<StoredMessage[]>
  forgetRevision(): Promise<number>
}

/**
 * One page of `memory.messages`: which messages from the catalog (it knows every stored message's `seq`), their
 * contents from the store, and the forget revision they were read at.
 */
export async function messagePage(
  request: MessagesRequest,
  catalog: SentenceCatalog,
  store: PageSource,
): Promise<MessagePage> {
  const revision = await store.forgetRevision()
  const { after, before, limit, newestFirst } = request
  if (request.ids)
    return { messages: chosenMessages(await store.messagesById([...new Set(request.ids)]), request), revision }
  const picked = messagesInRange(catalog.scope(request.conversationId), after, before, limit + 1, newestFirst)
  const page = picked.slice(0, limit)
  const messages = await store.messagesById(page.map((m) => m.id))
  return picked.length > limit ? { messages, next: page[page.length - 1].seq, revision } : { messages, revision }
}

/**
 * The `count` messages of `scope` with a `seq` above `after` and below `before` that come first in `seq` order
 * (the oldest), or with `newestFirst` the last `count` (the newest), newest first.
 */
function messagesInRange(
  scope: CatalogScope,
  after: number,
  before: number,
  count: number,
  newestFirst: boolean,
): CatalogMessage[] {
  const { messages } = scope
  if (!scope.reordered) {
    // In time order, which is `seq` order until a message arrives dated before another.
    const low = countAtMost(messages, after)
    const high = Math.max(low, countAtMost(messages, before - 1))
    return newestFirst
      ? messages.slice(Math.max(low, high - count), high).reverse()
      : messages.slice(low, Math.min(high, low + count))
  }
  // Only the page is sorted with a comparator: the cut-off comes from a native numeric sort of the seqs alone.
  const inRange = messages.filter((m) => m.seq > after && m.seq < before)
  const order = newestFirst
    ? (a: CatalogMessage, b: CatalogMessage) => b.seq - a.seq
    : (a: CatalogMessage, b: CatalogMessage) => a.seq - b.seq
  if (inRange.length > count) {
    const seqs = Float64Array.from(inRange, (m) => m.seq).sort()
    const cutoff = newestFirst ? seqs[seqs.length - count] : seqs[count - 1]
    return inRange.filter((m) => (newestFirst ? m.seq >= cutoff : m.seq <= cutoff)).sort(order)
  }
  return inRange.sort(order)
}

/** How many of `messages` (ascending by `seq`) have a `seq` at most `seq`. */
function countAtMost(messages: readonly CatalogMessage[], seq: number): number {
  let low = 0
  let high = messages.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (messages[middle].seq <= seq) low = middle + 1
    else high = middle
  }
  return low
}

/** The stored messages `request.ids` named that the request's other options let through, in its order. */
function chosenMessages(stored: StoredMessage[], request: MessagesRequest): StoredMessage[] {
  const { conversationId, after, before, newestFirst } = request
  const kept = stored.filter(
    (m) => (conversationId === undefined || m.conversationId === conversationId) && m.seq > after && m.seq < before,
  )
  return kept.sort(newestFirst ? (a, b) => b.seq - a.seq : (a, b) => a.seq - b.seq)
}
