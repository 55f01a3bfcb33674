// The recall tool: a function the LLM calls once it knows what it needs from earlier in the conversation ("recall:
// what did I say about the dentist?"), answered with the matching excerpts and their dates. Here its definition as
// plain JSON Schema, for any SDK, and its result made from a context; `sift-memory/ai` wraps both as an AI SDK tool.
import type { Context } from '../context-types'

/** What the model passes to the recall tool. */
export interface RecallInput {
  /** What to look for, in the model's words: a question or the subject it needs. */
  query: string
}

/** One message of the history that matched, as the tool returns it. */
export interface RecallExcerpt {
  /** When it was said: a UTC date, `2026-03-02`. */
  date: string
  /** Who said the message. */
  role: string
  /** Its sentences that matched, in order; ` […] ` where sentences between them were left out. */
  text: string
}

/** The recall tool's result: the excerpts in time order, none when nothing matched. */
export interface RecallResult {
  /** One per message that matched, oldest first. */
  excerpts: RecallExcerpt[]
}

/** The tool as a function definition in JSON Schema, the shape OpenAI's `tools[].function` and most SDKs take. */
export const RECALL_TOOL = {
  name: 'recall',
  description:
    'Look up what was said earlier in this conversation, beyond the recent turns you can see: facts the user shared, ' +
    'decisions, names, dates. Call it with what you need to know; it returns the matching excerpts with their dates, ' +
    'oldest first. Newer excerpts may update older ones.',
  parameters: {
    type: 'object',
    properties: {
      query: {
        type: 'string',
        description: "What to look for, e.g. 'what the user said about the dentist' or 'the name of the dog'.",
      },
    },
    required: ['query'],
    additionalProperties: false,
  },
} as const

/**
 * Offsets this close count as adjacent sentences of one message (the space or line break between them); further
 * apart, a sentence between them was left out.
 */
const ADJACENT_GAP = 3

/** A context as the recall tool's result: one excerpt per message, its picked sentences joined, in time order. */
export function recallResult(context: Pick<Context, 'items'>): RecallResult {
  const excerpts: RecallExcerpt[] = []
  let previous: Context['items'][number] | undefined
  for (const item of context.items) {
    if (previous && previous.messageId === item.messageId) {
      const excerpt = excerpts[excerpts.length - 1]
      excerpt.text += (item.start - previous.end <= ADJACENT_GAP ? ' ' : ' […] ') + item.text
    } else {
      excerpts.push({ date: utcDay(item.timestamp), role: item.role, text: item.text })
    }
    previous = item
  }
  return { excerpts }
}

/** `2026-03-02`; '' for a timestamp no Date holds. The forget tool dates its statements the same way. */
export function utcDay(timestamp: number): string {
  const date = new Date(timestamp)
  return Number.isNaN(date.getTime()) ? '' : date.toISOString().slice(0, 10)
}
