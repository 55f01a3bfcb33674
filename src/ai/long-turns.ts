// Turns longer than the memory takes in one message, and requests longer than a ranking needs: the middleware stores
// the first in parts and ranks with a bounded excerpt of the second, so that a long turn never fails an LLM call.

/**
 * `text` cut into consecutive parts of at most `maxChars` characters that join back to it exactly: each cut at the
 * last paragraph break, line break, sentence end or space in the part's second half, else at `maxChars` (never
 * between the two halves of a surrogate pair). One part, the text itself, when it fits.
 */
export function splitTurn(text: string, maxChars: number): string[] {
  const parts: string[] = []
  let start = 0
  while (text.length - start > maxChars) {
    const end = cutBefore(text, start, start + maxChars)
    parts.push(text.slice(start, end))
    start = end
  }
  parts.push(text.slice(start))
  return parts
}

/** Where a part from `start` ends, at most at `limit`: after the best break in its second half. */
function cutBefore(text: string, start: number, limit: number): number {
  const window = text.slice(start, limit)
  const half = Math.floor(window.length / 2)
  for (const pattern of [/\n\s*\n/g, /\n/g, /[.!?。！？]\s/g, /\s/g]) {
    let last = -1
    for (const match of window.matchAll(pattern)) if (match.index >= half) last = match.index + match[0].length
    if (last > 0) return start + last
  }
  return whole(text, limit)
}

/**
 * What a context is ranked for when the user's message is longer than `maxChars`: its start and its end (a pasted
 * document is usually introduced before it or asked about after it), joined by a gap mark. The message itself is
 * sent and stored whole.
 */
export function rankedPart(request: string, maxChars: number): string {
  if (request.length <= maxChars) return request
  const head = whole(request, Math.floor((maxChars - 3) / 2))
  const tail = whole(request, request.length - (maxChars - 3 - head))
  return `${request.slice(0, head)} … ${request.slice(tail)}`
}

/** `at`, or one before it where `at` falls between the two halves of a surrogate pair. */
function whole(text: string, at: number): number {
  const code = text.charCodeAt(at - 1)
  return code >= 0xd800 && code <= 0xdbff ? at - 1 : at
}
