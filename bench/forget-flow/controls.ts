import type { Memory } from '../../src/types'

/** A message that speaks of forgetting, deleting or changing in another sense and asks for nothing to be forgotten. */
export interface SetControl {
  id: string
  message: string
  /** The set's half, as for requests (forget-wordings-fresh.json: every control is `held-out`). */
  split?: 'tune' | 'held-out'
}

/**
 * What an app that asks `findForgettable` of every user message would show for the controls: the number of them
 * that get at least one suggestion (a match at or above the default `minScore`), each logged to stderr with its top
 * match. Run on the stored conversation before anything is forgotten.
 */
export async function controlsWithSuggestions(
  memory: Memory,
  controls: readonly SetControl[],
  options: { conversationId: string; limit: number },
  log: (line: string) => void,
): Promise<number> {
  let suggested = 0
  for (const control of controls) {
    const [top] = await memory.findForgettable(control.message, options)
    if (!top) continue
    suggested++
    log(`${control.id}: control suggests ${top.messageId} (${top.score.toFixed(2)}): ${top.sentences[0]?.text ?? ''}`)
  }
  return suggested
}
