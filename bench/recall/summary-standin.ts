import { splitSentences } from '../../src/core/split-sentences'

/**
 * A stand-in for the summary an app's LLM would write (none can run here): the first sentence of every tenth turn,
 * oldest first, thinned evenly until the text holds at most `chars` characters. Covers the whole conversation, so
 * `through` is its last message. Built only from the history itself, so any fact it holds is also in the originals:
 * what it measures is what the slot costs the retrieved excerpts, not what a good summary adds.
 */
export function summaryStandIn(
  messages: readonly { id?: string; content: string }[],
  chars: number,
): { text: string; through: string } | undefined {
  const firsts = messages.flatMap((message, i) => {
    if (i % 10 !== 0) return []
    const first = splitSentences(message.content)[0]?.text
    return first === undefined ? [] : [first]
  })
  const total = firsts.reduce((sum, sentence) => sum + sentence.length + 1, 0)
  const step = Math.max(1, Math.ceil(total / chars))
  const kept: string[] = []
  let length = 0
  for (let i = 0; i < firsts.length; i += step) {
    if (length + firsts[i].length + (kept.length > 0 ? 1 : 0) > chars) break
    length += firsts[i].length + (kept.length > 0 ? 1 : 0)
    kept.push(firsts[i])
  }
  // A history without ids (a plain message list) gets ids at add that this cannot name.
  const through = messages.at(-1)?.id
  return kept.length === 0 || through === undefined ? undefined : { text: kept.join(' '), through }
}
