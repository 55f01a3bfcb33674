import { SiftError } from '../../src/errors'
import type { MessageRecord } from './message-record'

/** Offsets of a sentence in its message's content. */
export interface SentenceOffsets {
  start: number
  end: number
}

/**
 * The parts of a stored message that `withoutSentences` reads; a synced copy of a message has them too, less the sids,
 * which are each device's own (its removed sids then count from 0).
 */
export type SentenceSlots = Pick<MessageRecord, 'id' | 'content' | 'spans'> & { firstSid?: number }

/** A message with some of its sentences removed: the record to store, or none when no sentence is left. */
export interface SentenceRemoval<R extends SentenceSlots = MessageRecord> {
  /** The message without those sentences, or `undefined` when they were all it had (it is then removed whole). */
  record: R | undefined
  /** The sids of the removed sentences (every sid of the message when it is removed whole). */
  sids: number[]
}

const WHITESPACE = /\s/

/**
 * `record` without the sentences at `removed`: their text cut from the content with the whitespace that parted them
 * from the next sentence (from the one before, for the last), the other sentences' spans moved with the text.
 *
 * A removed sentence keeps its slot in `spans` as an empty span (a tombstone) instead of the message being split and
 * numbered again: its sid is then never reused, the message's other sentences keep their sids (so their stored
 * vectors, the lexical index's rows and every record that names a sid stay valid without re-embedding the message),
 * and the sids stay consecutive from `firstSid`, in `seq` order, which every reader of the store relies on. An empty
 * span is no sentence: it has no text, vector or index row.
 *
 * Throws `INVALID_INPUT` for offsets that are not those of one of the message's sentences as stored.
 */
export function withoutSentences<R extends SentenceSlots>(
  record: R,
  removed: readonly SentenceOffsets[],
): SentenceRemoval<R> {
  const { content, spans, firstSid = 0 } = record
  const gone = new Set<number>()
  for (const { start, end } of removed) {
    const index = sentenceAt(spans, start, end)
    if (index === undefined) {
      throw new SiftError(
        'INVALID_INPUT',
        `forget: ${start}–${end} is not a sentence of the message "${record.id}" as stored now (its sentences may have changed since they were listed: call findForgettable again). Nothing was removed.`,
      )
    }
    gone.add(index)
  }
  const live = spanIndexes(spans).filter((i) => spans[2 * i] < spans[2 * i + 1])
  if (live.every((i) => gone.has(i))) return { record: undefined, sids: live.map((i) => firstSid + i) }
  const cuts = mergedCuts([...gone].sort((a, b) => a - b).map((i) => cutOf(content, spans[2 * i], spans[2 * i + 1])))
  // Cuts that reach the end take the whitespace before them too, as a last sentence's own cut does: removing the last
  // sentences together leaves the text that removing them one by one leaves (devices that sync merge both ways).
  const last = cuts.at(-1)
  if (last && last[1] === content.length) while (last[0] > 0 && WHITESPACE.test(content[last[0] - 1])) last[0]--
  const moved = (offset: number) => offset - cuts.reduce((sum, [from, to]) => sum + overlap(from, to, offset), 0)
  let kept = ''
  let at = 0
  for (const [from, to] of cuts) {
    kept += content.slice(at, from)
    at = to
  }
  kept += content.slice(at)
  const newSpans = spanIndexes(spans).flatMap((i) =>
    gone.has(i) ? [moved(spans[2 * i]), moved(spans[2 * i])] : [moved(spans[2 * i]), moved(spans[2 * i + 1])],
  )
  return {
    record: { ...record, content: kept, spans: newSpans },
    sids: [...gone].sort((a, b) => a - b).map((i) => firstSid + i),
  }
}

/** The index of the live sentence spanning exactly `start`–`end`. */
function sentenceAt(spans: readonly number[], start: number, end: number): number | undefined {
  for (let i = 0; i < spans.length / 2; i++) if (spans[2 * i] === start && spans[2 * i + 1] === end) return i
  return undefined
}

function spanIndexes(spans: readonly number[]): number[] {
  return Array.from({ length: spans.length / 2 }, (_, i) => i)
}

/** What removing the sentence at `start`–`end` cuts: it and the whitespace after it, or before it when it ends the text. */
function cutOf(content: string, start: number, end: number): [number, number] {
  let to = end
  while (to < content.length && WHITESPACE.test(content[to])) to++
  if (to < content.length) return [start, to]
  let from = start
  while (from > 0 && WHITESPACE.test(content[from - 1])) from--
  return [from, end]
}

/** Cuts in order, those that touch or overlap merged. */
function mergedCuts(cuts: [number, number][]): [number, number][] {
  const merged: [number, number][] = []
  for (const cut of cuts.sort((a, b) => a[0] - b[0])) {
    const last = merged.at(-1)
    if (last && cut[0] <= last[1]) last[1] = Math.max(last[1], cut[1])
    else merged.push([...cut])
  }
  return merged
}

/** How much of the cut `from`–`to` lies before `offset`. */
function overlap(from: number, to: number, offset: number): number {
  return Math.max(0, Math.min(to, offset) - from)
}
