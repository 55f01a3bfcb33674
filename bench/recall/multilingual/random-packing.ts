import { packBudget } from '../../../src/core/pack-budget'
import type { ScoredSentence } from '../../../src/core/scored-sentence'
import type { ContextItem } from '../../../src/types'
import { seededRandom } from '../../../worker/util/seeded-random'

/**
 * The random-packing baseline: a conversation's sentences in a random order, packed into the budget as
 * `buildContext` packs its candidates (`packBudget`, the same rendering). What a context holds by chance: at 8,000
 * characters a 30,000-character history is a quarter inside the budget whatever the ranking.
 */

/** The conversation's sentences as the packer takes them, from the `full` strategy's items (every sentence, in order). */
export function packableSentences(items: readonly ContextItem[]): ScoredSentence[] {
  const turns = new Map<string, number>()
  const indexInMessage = new Map<string, number>()
  return items.map((item, sid) => {
    if (!turns.has(item.messageId)) turns.set(item.messageId, turns.size)
    const index = indexInMessage.get(item.messageId) ?? 0
    indexInMessage.set(item.messageId, index + 1)
    const { messageId, conversationId, seq, role, timestamp, text, start, end } = item
    return {
      sid,
      messageId,
      conversationId,
      seq,
      index,
      role,
      timestamp,
      text,
      start,
      end,
      turn: turns.get(messageId)!,
      score: 0,
      reason: 'position',
    }
  })
}

/** One random draw's context: its rendered text and the messages it holds sentences of. */
export interface RandomContext {
  text: string
  messageIds: Set<string>
}

/** `draws` contexts of `budget` characters, each the sentences shuffled (seeded: the same draws every run) and packed. */
export function randomContexts(
  sentences: readonly ScoredSentence[],
  budget: number,
  draws: number,
  seed: number,
): RandomContext[] {
  const random = seededRandom(seed)
  const contexts: RandomContext[] = []
  for (let draw = 0; draw < draws; draw++) {
    const order = [...sentences]
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1))
      ;[order[i], order[j]] = [order[j], order[i]]
    }
    const packed = packBudget(order, { budget })
    contexts.push({ text: packed.text, messageIds: new Set(packed.items.map((item) => item.messageId)) })
  }
  return contexts
}
