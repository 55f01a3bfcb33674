// Which stored message a chat turn is: the mark the middleware puts on the text it stores, and how a turn the app
// still holds is checked against the memory. Pure: no AI SDK import, so that sift-memory/react reads marks too.

/**
 * The mark on a turn's text (`providerMetadata.sift` on a streamed or generated text part, hence on `useChat`'s text
 * parts; `providerOptions.sift` once the AI SDK makes it a prompt again): the stored message it is, and for a reply,
 * the stored user message it answers. Ids only: a mark never carries text.
 */
export interface TurnMark {
  /** The id of the stored message the turn is (or, with `asked`, will be). */
  id: string
  /** For a reply: the id of the stored user message it answers. */
  requestId?: string
  /**
   * Set on a user message marked as it is sent (`userMessage`): the id it will be stored under once its call
   * succeeds, not proof that it was. Such a message is checked against the memory only once a reply names it
   * (`requestId`): one whose call failed or was stopped was never stored, not forgotten.
   */
  asked?: true
}

/** The key of the mark in `providerOptions` and `providerMetadata`. */
export const MARK_KEY = 'sift'

/**
 * Longest part a turn is stored in: a longer one is stored as consecutive messages (`partIds`), so a pasted document
 * or a long reply never exceeds `MemoryOptions.maxMessageChars` (default 100,000). Half of it leaves room for a
 * memory that lowered the limit, and a part ends at a paragraph, line, sentence or word where one is near.
 */
export const DEFAULT_PART_CHARS = 50_000
/** The smallest part size the middleware takes: bounds how many part ids a check of a long turn asks for. */
export const MIN_PART_CHARS = 1_000

/** The mark under `MARK_KEY` in a part's or message's provider options or metadata, when there is a valid one. */
export function markIn(options: unknown): TurnMark | undefined {
  if (typeof options !== 'object' || options === null) return undefined
  const mark = (options as Record<string, unknown>)[MARK_KEY]
  if (typeof mark !== 'object' || mark === null) return undefined
  const { id, requestId, asked } = mark as Record<string, unknown>
  if (typeof id !== 'string' || id === '') return undefined
  return {
    id,
    ...(typeof requestId === 'string' && requestId !== '' && { requestId }),
    ...(asked === true && { asked: true as const }),
  }
}

/** `metadata` (a part's provider metadata, or none) with `mark` under `MARK_KEY`, the rest kept. */
export function withMark<M extends Record<string, unknown>>(
  metadata: M | undefined,
  mark: TurnMark,
): M & { [MARK_KEY]: TurnMark } {
  return { ...(metadata ?? ({} as M)), [MARK_KEY]: { ...mark } }
}

/** The ids a turn stored as `count` parts has: the first is the turn's own id. */
export function partIds(id: string, count: number): string[] {
  const ids = [id]
  for (let part = 2; part <= count; part++) ids.push(`${id}:${part}`)
  return ids
}

/** Every id a turn of `chars` characters may have been stored under (its parts are at least `MIN_PART_CHARS / 2`). */
export function possiblePartIds(id: string, chars: number): string[] {
  return partIds(id, Math.min(1000, Math.max(1, Math.ceil(chars / (MIN_PART_CHARS / 2)))))
}

/**
 * What to do with a turn the app still holds, given what the memory stores under its ids (`stored`, in part order;
 * undefined where none is, which a forgotten part and an id the turn never needed both are): keep it as it is, drop it (every part was forgotten), or replace its text
 * with what is stored now (some of its sentences were forgotten). A text the memory normalised as it stored it (a
 * vertical tab made a line break) reads as changed and is replaced by the same words as stored: harmless.
 */
export function turnAgainstStore(
  texts: readonly string[],
  stored: readonly (string | undefined)[],
): { keep: true } | { drop: true } | { replace: string } {
  const kept = stored.filter((content): content is string => content !== undefined)
  if (kept.length === 0) return { drop: true }
  const now = kept.join('')
  if (texts.every((text) => now.includes(text))) return { keep: true }
  return { replace: now }
}
