import type { Memory } from '../../src/types'

/** A message that speaks of forgetting, deleting or changing in another sense and asks for nothing to be forgotten. */
export interface SetControl {
  id: string
  message: string
  /** The set's half, as for requests (forget-wordings-fresh.json: every control is `held-out`). */
  split?: 'tune' | 'held-out'
}

/** What the controls get from `findForgettable`: how many get any match, and how many are read as a request. */
export interface ControlOutcome {
  /** Controls with at least one match at or above the default `minScore`: what an app that ignores `request` shows. */
  suggested: number
  /** Controls whose matches carry a `request`: what an app that shows the list only with a request shows. */
  readAsRequest: number
}

/**
 * What an app that asks `findForgettable` of every user message would show for the controls, each suggestion and each
 * request read logged to stderr. Run on the stored conversation before anything is forgotten.
 */
export async function controlOutcome(
  memory: Memory,
  controls: readonly SetControl[],
  options: { conversationId: string; limit: number },
  log: (line: string) => void,
): Promise<ControlOutcome> {
  const outcome = { suggested: 0, readAsRequest: 0 }
  for (const control of controls) {
    const request = await memory.findForgetRequest(control.message)
    if (request) {
      outcome.readAsRequest++
      log(`${control.id}: control read as a request: ${request.sentences.map((s) => s.text).join(' ')}`)
    }
    const matches = await memory.findForgettable(control.message, options)
    const [top] = matches
    if (!top) continue
    outcome.suggested++
    log(`${control.id}: control suggests ${top.messageId} (${top.score.toFixed(2)}): ${top.sentences[0]?.text ?? ''}`)
  }
  return outcome
}
