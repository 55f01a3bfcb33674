/** The ids one exchange is stored under: its user message and its reply. */
export interface ExchangeIds {
  user: string
  reply: string
}

/**
 * Ids derived from the conversation up to the user's message (`PromptWindow.exchange`) and its conversation id: a
 * retried call, a regenerated reply and every step of a multi-step call get the same ones, so the user's message is
 * stored once. SHA-256 (WebCrypto: a secure context, https or localhost, in a browser), 128 bits of it.
 */
export async function exchangeIds(conversationId: string | undefined, exchange: string): Promise<ExchangeIds> {
  const bytes = new TextEncoder().encode(JSON.stringify([conversationId ?? null, exchange]))
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))
  const hex = [...digest.subarray(0, 16)].map((byte) => byte.toString(16).padStart(2, '0')).join('')
  return { user: `sift-ai-${hex}`, reply: `sift-ai-${hex}-reply` }
}
