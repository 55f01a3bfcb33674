// A context as the messages a chat request takes, in the order that keeps a provider's prompt cache working. Pure:
// plain data in, plain data out; the app sends the result itself.

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
   * The context built for `request` (`memory.buildContext(request, { excludeRecent: recent.length })`), or its
   * text; an empty one adds nothing.
   */
  context:
    | {
        /** The context's text (`Context.text`). */
        text: string
      }
    | string
  /** The latest turns, oldest first, sent verbatim after the excerpts (the ones `excludeRecent` left out of them). */
  recent: readonly ChatTurn[]
  /** The user's new message. */
  request: string
  /**
   * The line before the excerpts, in their system text.
   *
   * @defaultValue `'Excerpts from earlier in this conversation:'`
   */
  excerptsHeading?: string
}

/** A chat request in provider-neutral form (`chatPrompt`). */
export interface ChatPrompt {
  /** The system texts in order: the app's system prompt, then the excerpts when there are any. */
  system: string[]
  /** The recent turns, then the request. */
  messages: ChatTurn[]
}

export const DEFAULT_EXCERPTS_HEADING = 'Excerpts from earlier in this conversation:'

/**
 * The request in the order prompt caching needs: a provider reuses the longest prefix an earlier request shared, so
 * the system prompt, the same every time, comes first; the excerpts, which change with every request, follow it in
 * a system text of their own (inside the system prompt they would break the shared prefix); the recent turns and
 * the request come last, where the model reads them as the conversation going on. For the AI SDK pass `system` as
 * `system` (`prompt.system.map((content) => ({ role: 'system', content }))`) and `messages` as `messages`.
 */
export function chatPrompt(parts: ChatPromptParts): ChatPrompt {
  const text = typeof parts.context === 'string' ? parts.context : parts.context.text
  const heading = parts.excerptsHeading ?? DEFAULT_EXCERPTS_HEADING
  return {
    system: text === '' ? [parts.system] : [parts.system, `${heading}\n${text}`],
    messages: [
      ...parts.recent.map(({ role, content }) => ({ role, content })),
      { role: 'user', content: parts.request },
    ],
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
  /** On the app's system prompt only: the cache breakpoint after it. */
  cache_control?: {
    /** Anthropic's short-lived cache. */
    type: 'ephemeral'
  }
}

/** The `system` and `messages` of an Anthropic Messages request. */
export interface AnthropicPrompt {
  /** The app's system prompt (with its cache breakpoint), then the excerpts. */
  system: AnthropicSystemBlock[]
  /** The recent turns, then the request. */
  messages: ChatTurn[]
}

/**
 * `prompt` as an Anthropic Messages request's `system` blocks and `messages`. The app's system prompt carries a cache
 * breakpoint (`cache_control`), so that it is cached and the excerpts after it are not; Anthropic caches a prefix
 * only from a minimum length on, and a shorter one is simply sent uncached. Anthropic has required the first message
 * to be the user's: start `recent` at a user turn.
 */
export function toAnthropicPrompt(prompt: ChatPrompt): AnthropicPrompt {
  const [stable, ...rest] = prompt.system
  return {
    system: [
      { type: 'text', text: stable, cache_control: { type: 'ephemeral' } },
      ...rest.map((text) => ({ type: 'text' as const, text })),
    ],
    messages: prompt.messages,
  }
}
