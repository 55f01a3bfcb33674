import type { LanguageModelMiddleware } from 'ai'
import type { BuildContextOptions } from '../context-types'
import { DEFAULT_EXCERPTS_HEADING } from '../core/chat-prompt'
import { isSiftError } from '../errors'
import type { Memory, MessageInput } from '../types'
import { exchangeIds, type ExchangeIds } from './exchange-ids'
import type { ModelCallOptions, ModelFinishReason, ModelGenerateResult, ModelStreamPart } from './model-types'
import { promptWithExcerpts, readPromptWindow } from './prompt-window'

/** How `siftMemory` builds each call's context and what it stores. */
export interface SiftMemoryOptions {
  /**
   * Turns before the user's message sent verbatim, the latest ones (a user message is one turn, an assistant's reply
   * with its tool calls one); older turns are dropped from the prompt and reach the model through the context, which
   * leaves these out (`excludeRecent`). Default 6.
   */
  recentTurns?: number
  /**
   * The context's budget, as `BuildContextOptions.budget` takes it: characters, or `{ tokens, tokenizer }` in the
   * LLM's tokens. Default 4000 characters.
   */
  budget?: BuildContextOptions['budget']
  /**
   * The conversation the context is built from and the exchange stored in. A call can name its own with
   * `providerOptions: { sift: { conversationId } }` (e.g. `useChat`'s chat id). Default: every conversation's
   * history, stored under `'default'`.
   */
  conversationId?: string
  /** Default `'hybrid'`. */
  strategy?: BuildContextOptions['strategy']
  /** The conversation summaries' share of the budget, as `BuildContextOptions.summary` takes it. Default a quarter. */
  summary?: BuildContextOptions['summary']
  /** The line before the excerpts in their system message. Default `'Excerpts from earlier in this conversation:'`. */
  excerptsHeading?: string
  /**
   * Store each exchange (the user's message and the finished reply) once the call has succeeded. Default true; false
   * for an app that stores its turns itself.
   */
  remember?: boolean
}

/** A call's own options for the middleware, under `providerOptions.sift`. */
export interface SiftCallOptions {
  conversationId?: string
}

/** An exchange to store once its call has finished. */
interface PendingExchange {
  ids: ExchangeIds
  conversationId: string | undefined
  request: string
  replySoFar: string
  startedAt: number
}

const DEFAULTS = { recentTurns: 6, budget: 4000 }

/**
 * An AI SDK language-model middleware (`wrapLanguageModel({ model, middleware: siftMemory(memory) })`) that gives
 * every call the memory of the whole conversation without sending it: for each call it builds the context for the
 * latest user message from the stored history, keeps the prompt's system messages and its last `recentTurns` turns
 * verbatim, drops the older turns, and puts the context in a system message right after the system prefix (where a
 * provider's prompt cache still finds the prefix). Once the call has succeeded, streamed or not, it stores the user's
 * message and the finished reply; a call that fails, is aborted or ends in tool calls (the next step goes on) stores
 * nothing. A retried call, or a regenerated reply, stores the user's message once and keeps the latest reply.
 * A failure to store (a full disk: `QUOTA_EXCEEDED`) fails the call, streamed or not, after its reply.
 */
export function siftMemory(memory: Memory, options: SiftMemoryOptions = {}): LanguageModelMiddleware {
  const { recentTurns = DEFAULTS.recentTurns, budget = DEFAULTS.budget, strategy, summary, remember = true } = options
  const heading = options.excerptsHeading ?? DEFAULT_EXCERPTS_HEADING
  // The params object transformParams returns is the one the wrap functions receive.
  const pending = new WeakMap<ModelCallOptions, PendingExchange>()
  const store = async (exchange: PendingExchange, reply: string) => {
    const { ids, conversationId, request, startedAt } = exchange
    const replyMessage: MessageInput = { id: ids.reply, role: 'assistant', content: reply, conversationId }
    const messages: MessageInput[] = [
      { id: ids.user, role: 'user', content: request, conversationId, timestamp: startedAt },
    ]
    if (reply !== '') messages.push(replyMessage)
    try {
      await memory.add(messages)
    } catch (error) {
      if (!isSiftError(error) || error.code !== 'DUPLICATE_ID') throw error
      // The same exchange again: its user message is stored; this reply replaces the one stored before.
      await memory.forget({ ids: [ids.reply] })
      if (reply !== '') await memory.add(replyMessage)
    }
  }
  return {
    specificationVersion: 'v3',
    transformParams: async ({ params }) => {
      const { sift, ...providerOptions } = params.providerOptions ?? {}
      const call = (sift ?? {}) as SiftCallOptions
      const conversationId = typeof call.conversationId === 'string' ? call.conversationId : options.conversationId
      const passed: ModelCallOptions = { ...params, providerOptions }
      const window = readPromptWindow(params.prompt, recentTurns)
      if (!window) return passed
      const context = await memory.buildContext(window.request, {
        budget,
        strategy,
        conversationId,
        excludeRecent: window.recentTurns,
        ...(summary !== undefined && { summary }),
      })
      const transformed = {
        ...passed,
        prompt: promptWithExcerpts(window, context.text === '' ? undefined : `${heading}\n${context.text}`),
      }
      if (remember) {
        pending.set(transformed, {
          ids: await exchangeIds(conversationId, window.exchange),
          conversationId,
          request: window.request,
          replySoFar: window.replySoFar,
          startedAt: Date.now(),
        })
      }
      return transformed
    },
    wrapGenerate: async ({ doGenerate, params }) => {
      const result = await doGenerate()
      const exchange = pending.get(params)
      if (exchange && isFinished(result.finishReason))
        await store(exchange, joinReply(exchange.replySoFar, textOfContent(result.content)))
      return result
    },
    wrapStream: async ({ doStream, params }) => {
      const result = await doStream()
      const exchange = pending.get(params)
      if (!exchange) return result
      let text = ''
      let finishReason: ModelFinishReason | undefined
      let failed = false
      const stream = result.stream.pipeThrough(
        new TransformStream<ModelStreamPart, ModelStreamPart>({
          transform(part, controller) {
            if (part.type === 'text-delta') text += part.delta
            else if (part.type === 'finish') finishReason = part.finishReason
            else if (part.type === 'error') failed = true
            controller.enqueue(part)
          },
          // Not called when the stream errors or is cancelled (an abort): nothing is stored then.
          async flush() {
            if (!failed && finishReason && isFinished(finishReason))
              await store(exchange, joinReply(exchange.replySoFar, text))
          },
        }),
      )
      return { ...result, stream }
    },
  }
}

/** Whether a call ended with the reply it was for: not in error, and not with tool calls a next step answers. */
function isFinished(reason: ModelFinishReason): boolean {
  return reason.unified !== 'error' && reason.unified !== 'tool-calls'
}

function textOfContent(content: ModelGenerateResult['content']): string {
  return content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('')
}

/** The reply stored: the text of this call's earlier steps, then this step's. */
function joinReply(soFar: string, text: string): string {
  return soFar === '' ? text : text === '' ? soFar : `${soFar}\n\n${text}`
}
