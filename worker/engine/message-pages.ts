import type { MessagePage, StoredMessage } from '../../src/types'
import type { CatalogMessage, CatalogScope, SentenceCatalog } from '../index/sentence-catalog'
import type { MessagesRequest } from '../input/messages-request'

/**
 * One page of `memory.messages`: which messages from the catalog (it knows every stored message's `seq`), their
 * contents from the store (`read`), which has the whole text (the catalog only has the sentences).
 */
export async function messagePage(request: MessagesRequest, catalog: SentenceCatalog, read: (ids: string[]) => Promise<StoredMessage[]>): Promise<MessagePage> {
  const picked = messagesAfter(catalog.scope(request.conversationId), request.after, request.limit + 1)
  const page = picked.slice(0, request.limit)
  const messages = await read(page.map((m) => m.id))
  return picked.length > request.limit ? { messages, next: page[page.length - 1].seq } : { messages }
}

/** The first `count` messages of `scope` in `seq` order with a `seq` above `after`. */
function messagesAfter(scope: CatalogScope, after: number, count: number): CatalogMessage[] {
  const { messages } = scope
  if (!scope.reordered) {
    // In time order, which is `seq` order until a message arrives dated before another.
    let low = 0
    let high = messages.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if (messages[middle].seq <= after) low = middle + 1
      else high = middle
    }
    return messages.slice(low, low + count)
  }
  // Only the page is sorted with a comparator: the cut-off comes from a native numeric sort of the seqs alone.
  const later = messages.filter((m) => m.seq > after)
  if (later.length > count) {
    const cutoff = Float64Array.from(later, (m) => m.seq).sort()[count - 1]
    return later.filter((m) => m.seq <= cutoff).sort((a, b) => a.seq - b.seq)
  }
  return later.sort((a, b) => a.seq - b.seq)
}
