import type { MessageRecord } from './message-record'

/**
 * The catalog and the vector blocks rely on one invariant: in `seq` order, each message's sentence ids come after the
 * ones before it (sids `firstSid … firstSid + count - 1`, an empty message sharing its `firstSid` with the next).
 * A changed `seq` or `firstSid` (a damaged disk, an edited record) breaks it, and an append would then never store the
 * vectors it was asked for. So of messages in `seq` order, the largest set that keeps the invariant is kept (a longest
 * chain, n log n), the rest returned as `outOfOrder` for the store to skip and report like any unreadable record.
 */
export function inSidOrder(messages: readonly MessageRecord[]): { kept: MessageRecord[]; outOfOrder: MessageRecord[] } {
  if (isChain(messages)) return { kept: [...messages], outOfOrder: [] }
  // Patience sorting on firstSid: `tails[k]` is the index of the smallest last firstSid of a chain of length k + 1.
  const tails: number[] = []
  const previous = new Int32Array(messages.length).fill(-1)
  messages.forEach((message, i) => {
    let low = 0
    let high = tails.length
    while (low < high) {
      const middle = (low + high) >> 1
      if (fitsAfter(messages[tails[middle]], message)) low = middle + 1
      else high = middle
    }
    if (low > 0) previous[i] = tails[low - 1]
    tails[low] = i
  })
  const chain = new Set<number>()
  for (let i = tails.at(-1) ?? -1; i >= 0; i = previous[i]) chain.add(i)
  const kept = messages.filter((_, i) => chain.has(i))
  const outOfOrder = messages.filter((_, i) => !chain.has(i))
  return { kept, outOfOrder }
}

function isChain(messages: readonly MessageRecord[]): boolean {
  return messages.every((message, i) => i === 0 || fitsAfter(messages[i - 1], message))
}

/** Whether `next`'s sentences all come after `before`'s. */
function fitsAfter(before: MessageRecord, next: MessageRecord): boolean {
  return before.firstSid + before.spans.length / 2 <= next.firstSid
}
