import type { MessageInput } from '../src/types'
import { germanSessions } from './sample-german'
import { autumnSessions } from './sample-sessions-autumn'
import { springSessions } from './sample-sessions-spring'

/** One sitting of the sample history: when it started (ISO, UTC) and its turns in order. */
export interface SampleSession {
  date: string
  turns: [role: 'user' | 'assistant', content: string][]
}

/** Turns of one sitting are this far apart, so the history reads in time order with realistic dates. */
const TURN_GAP_MS = 90_000

/** A sample's messages, one array per sitting, with fixed ids (`idPrefix-1`, …) and, when given, its own conversation. */
function sessionMessages(
  sessions: readonly SampleSession[],
  idPrefix = 'sample',
  conversationId?: string,
): MessageInput[][] {
  let seq = 0
  return sessions.map(({ date, turns }) => {
    const start = Date.parse(date)
    return turns.map(([role, content], index) => ({
      id: `${idPrefix}-${++seq}`,
      role,
      content,
      timestamp: start + index * TURN_GAP_MS,
      ...(conversationId && { conversationId }),
    }))
  })
}

/**
 * The demo's sample history, one array of messages per sitting (March to November 2026), written for the demo:
 * a nurse who moves to Porto with her partner and her anxious beagle. Ids are fixed (`sample-1`, …) so loading
 * it twice is refused (`DUPLICATE_ID`) instead of storing every fact twice.
 */
export const sampleSessions: MessageInput[][] = sessionMessages([...springSessions, ...autumnSessions])

/** Every message of the sample, in order. */
export const sampleConversation: MessageInput[] = sampleSessions.flat()

/** Requests the sample can answer, offered as one-click examples; several need a fact that changed over time. */
export const sampleRequests = [
  'Suggest a vegetarian dinner I could cook for Tom and me tonight, keeping my allergies in mind.',
  'Where is our new flat, and how do I get to the hospital from there?',
  'Who looks after Biscuit when we travel, and what should the sitter know about him?',
  'What am I allergic to, and what should I avoid when eating out?',
  'How is my knee, and what does my half marathon training look like?',
  'Tom’s birthday is coming up: what gift could I buy him?',
  'When does my shift start these days?',
  'How is my Portuguese going, and which exam did I take?',
]

/** The German sample (`sample-german.ts`): its own conversation, `beispiel-de`, with ids `beispiel-1`, …. */
export const germanConversation: MessageInput[] = sessionMessages(germanSessions, 'beispiel', 'beispiel-de').flat()
