// A context as the messages a chat request takes, in the order that keeps a provider's prompt cache working. Pure:
// plain data in, plain data out; the app sends the result itself.
import type { ContextSections } from '../context-types'

/** A turn of the conversation as a chat request carries it. */
export interface ChatTurn {
  /** Who said it. */
  role: 'user' | 'assistant'
  /** What was said. */
  content: string
}

/** What one chat request is made of, before it is put in a provider's shape. */
export interface ChatPromptParts {
  /** The app's system prompt: the same in every request, so that it is the prefix a prompt cache reuses. */
  system: string
  /**
   * The context built for `request` (`memory.buildContext(request, { excludeRecent: recent.length })`): its stable
   * sections and its excerpts go in system texts of their own (`Context.sections`). A plain string, or an object
   * without `sections`, is taken as excerpts, all of it in one system text as before; an empty one adds nothing.
   */
  context:
    | {
        /** The context's text (`Context.text`): what is sent when `sections` is absent. */
        text: string
        /** The context's text split into its stable sections and its excerpts (`Context.sections`). */
        sections?: ContextSections
      }
    | string
  /** The latest turns, oldest first, sent verbatim after the excerpts (the ones `excludeRecent` left out of them). */
  recent: readonly ChatTurn[]
  /** The user's new message. */
  request: string
  /**
   * The line before the excerpts, in their system text; `''` for none. The stable sections need none: each has its
   * own header (`Pinned:`, `Summary of the conversation up to …:`).
   *
   * @defaultValue `'Excerpts from earlier in this conversation:'`
   */
  excerptsHeading?: string
}

/** A chat request in provider-neutral form (`chatPrompt`). */
export interface ChatPrompt {
  /**
   * The system texts in order: the app's system prompt, then the context's stable sections when it has any, then its
   * excerpts when there are any.
   */
  system: string[]
  /**
   * How many of `system`'s texts, from the first, stay the same from one request to the next: the app's system
   * prompt, and the stable sections when there are any. `toAnthropicPrompt` puts its cache breakpoint after the last.
   *
   * Range: an integer from 1 to `system.length`.
   *
   * @defaultValue `1`: the system prompt alone (a prompt made without `chatPrompt`)
   */
  stableSystemTexts?: number
  /** The recent turns, then the request. */
  messages: ChatTurn[]
}

export const DEFAULT_EXCERPTS_HEADING = 'Excerpts from earlier in this conversation:'

/**
 * The request in the order prompt caching needs: a provider reuses the longest prefix an earlier request shared, so
 * the system prompt, the same every time, comes first; the context's stable sections (pins and summaries, which
 * change only when the app changes them) follow it in a system text of their own, so that the cached prefix runs
 * through them; the excerpts, which change with every request, come after in their own system text (before the
 * stable sections they would end the shared prefix there); the recent turns and the request come last, where the
 * model reads them as the conversation going on. For the AI SDK pass `system` as `system`
 * (`prompt.system.map((content) => ({ role: 'system', content }))`) and `messages` as `messages`.
 */
export function chatPrompt(parts: ChatPromptParts): ChatPrompt {
  const { stable, excerpts } = contextSystemTexts(parts.context, parts.excerptsHeading ?? DEFAULT_EXCERPTS_HEADING)
  return {
    system: [parts.system, ...stable, ...excerpts],
    stableSystemTexts: 1 + stable.length,
    messages: [
      ...parts.recent.map(({ role, content }) => ({ role, content })),
      { role: 'user', content: parts.request },
    ],
  }
}

/**
 * A context as the system texts that follow the app's system prompt, each empty or of one text: its stable sections,
 * then its excerpts under `heading` (`''`: none). A context without `sections` is all excerpts. Shared by
 * `chatPrompt` and the middleware, so that both send the same texts.
 */
export function contextSystemTexts(
  context: ChatPromptParts['context'],
  heading: string,
): { stable: string[]; excerpts: string[] } {
  const sections =
    typeof context === 'string'
      ? { stable: '', excerpts: context }
      : (context.sections ?? { stable: '', excerpts: context.text })
  const headed = heading === '' ? sections.excerpts : `${heading}\n${sections.excerpts}`
  return {
    stable: sections.stable === '' ? [] : [sections.stable],
    excerpts: sections.excerpts === '' ? [] : [headed],
  }
}

/** A message of an OpenAI-compatible chat completions request (`messages`). */
export interface OpenAIChatMessage {
  /** `system` for the system texts, else the turn's role. */
  role: 'system' | 'user' | 'assistant'
  /** The text. */
  content: string
}

/** `prompt` as an OpenAI-compatible request's `messages`: one system message per system text, then the turns. */
export function toOpenAIMessages(prompt: ChatPrompt): OpenAIChatMessage[] {
  return [...prompt.system.map((content) => ({ role: 'system' as const, content })), ...prompt.messages]
}

/** A text block of an Anthropic Messages request's `system`. */
export interface AnthropicSystemBlock {
  /** A text block. */
  type: 'text'
  /** The system text. */
  text: string
  /** On the last stable text only (`ChatPrompt.stableSystemTexts`): the cache breakpoint after it. */
  cache_control?: {
    /** Anthropic's short-lived cache. */
    type: 'ephemeral'
  }
}

/** The `system` and `messages` of an Anthropic Messages request. */
export interface AnthropicPrompt {
  /** The app's system prompt, the stable sections (the last of them with the cache breakpoint), then the excerpts. */
  system: AnthropicSystemBlock[]
  /** The recent turns, then the request. */
  messages: ChatTurn[]
}

/**
 * `prompt` as an Anthropic Messages request's `system` blocks and `messages`. The last stable text (the stable
 * sections, else the app's system prompt) carries a cache breakpoint (`cache_control`), so that the system prompt
 * and the pins and summaries are cached together and the excerpts after them are not; Anthropic caches a prefix only
 * from a minimum length on, and a shorter one is simply sent uncached. Anthropic has required the first message to
 * be the user's: start `recent` at a user turn.
 */
export function toAnthropicPrompt(prompt: ChatPrompt): AnthropicPrompt {
  const cachedThrough = (prompt.stableSystemTexts ?? 1) - 1
  return {
    system: prompt.system.map((text, index) =>
      index === cachedThrough
        ? { type: 'text', text, cache_control: { type: 'ephemeral' } }
        : { type: 'text' as const, text },
    ),
    messages: prompt.messages,
  }
}
