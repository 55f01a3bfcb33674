import type { LanguageModelMiddleware } from 'ai'
import type { BuildContextOptions, Context } from '../context-types'
import { contextSystemTexts, DEFAULT_EXCERPTS_HEADING } from '../core/chat-prompt'
import { asSiftError, SiftError } from '../errors'
import type { Memory } from '../types'
import { exchangeIds } from './exchange-ids'
import { rankedPart } from './long-turns'
import type { ModelCallOptions, ModelFinishReason, ModelGenerateResult, ModelStreamPart } from './model-types'
import { promptWithContext, readPromptWindow } from './prompt-window'
import { type PendingExchange, type StoreReport, storeExchange } from './store-exchange'
import { withStoredTurns } from './stored-turns'
import { DEFAULT_PART_CHARS, MIN_PART_CHARS, withMark } from './turn-marks'

export type { StoreReport } from './store-exchange'

/** How `siftMemory` builds each call's context and what it stores. */
export interface SiftMemoryOptions {
  /**
   * Turns before the user's message sent verbatim, the latest ones (a user message is one turn, an assistant's reply
   * with its tool calls one); older turns are dropped from the prompt and reach the model through the context, which
   * leaves these out (`excludeRecent`).
   *
   * Range: an integer ≥ 0 (0: only the user's message and the context). Not checked: a fraction counts as the next
   * integer up, and a number below 0 as 0.
   *
   * @defaultValue `6`
   */
  recentTurns?: number
  /**
   * The context's budget, as `BuildContextOptions.budget` takes it: characters, or `{ tokens, tokenizer }` in the
   * LLM's tokens. It covers the messages the context is sent in together (the stable sections' and the excerpts', its
   * heading included).
   *
   * Range: as `BuildContextOptions.budget`: an integer ≥ 1 of characters, or a `TokenBudget`. Checked on each call: a
   * budget out of range fails the call's context, and the prompt goes out as the app gave it (`onContext` says why).
   *
   * @defaultValue `4000` characters
   */
  budget?: BuildContextOptions['budget']
  /**
   * The conversation the context is built from and the exchange stored in. A call can name its own with
   * `providerOptions: { sift: { conversationId } }` (e.g. `useChat`'s chat id).
   *
   * @defaultValue none: every conversation's history, stored under `'default'`
   */
  conversationId?: string
  /**
   * How the context is ranked (`BuildContextOptions.strategy`).
   *
   * @defaultValue `'hybrid'`
   */
  strategy?: BuildContextOptions['strategy']
  /**
   * The conversation summaries' share of the budget, as `BuildContextOptions.summary` takes it.
   *
   * @defaultValue `{ maxShare: 0.25 }`, `buildContext`'s
   */
  summary?: BuildContextOptions['summary']
  /**
   * The line before the excerpts in their system message (`BuildContextOptions.heading`: at most 1,000 characters,
   * counted in the budget; `''` for none). The stable sections' message needs none: each section has its own header.
   *
   * @defaultValue `'Excerpts from earlier in this conversation:'`
   */
  excerptsHeading?: string
  /**
   * Store each exchange (the user's message and the finished reply) once the call has succeeded; false for an app
   * that stores its turns itself.
   *
   * @defaultValue `true`
   */
  remember?: boolean
  /**
   * Longest part of a user's message a context is ranked with, in characters: a longer message (a pasted document) is
   * ranked with its start and end, and sent and stored whole.
   *
   * Range: an integer from 100 to 100,000; `siftMemory` throws `INVALID_INPUT` for anything else.
   *
   * @defaultValue `8000`
   */
  maxRankedChars?: number
  /**
   * Longest message a turn is stored as, in characters: a longer turn is stored as consecutive messages of at most
   * this size (ids `ID`, `ID:2`, …). Keep it at most the memory's `maxMessageChars`.
   *
   * Range: an integer from 1,000 to 100,000; `siftMemory` throws `INVALID_INPUT` for anything else.
   *
   * @defaultValue `50_000`: half the memory's default `maxMessageChars`
   */
  partChars?: number
  /**
   * Told, for each call, what it sent: the context (with its stats), or why none, and the turns left out.
   *
   * @defaultValue none
   */
  onContext?: (report: ContextReport) => void
  /**
   * Told, for each exchange, what was stored, or why it could not be: a store never fails the call.
   *
   * @defaultValue none
   */
  onStore?: (report: StoreReport) => void
}

/** What one call sent instead of the older turns (`SiftMemoryOptions.onContext`). */
export interface ContextReport {
  /** The conversation the context was built from; undefined for every conversation's history. */
  conversationId: string | undefined
  /** The context sent in the stable sections' and the excerpts' messages (its `stats`: ranking, degraded, tokens…); undefined with `error`. */
  context?: Context
  /** Why no context was built: the prompt was then sent as the app gave it, every turn in it. */
  error?: SiftError
  /** Messages the app sent verbatim that were left out: the memory no longer holds them (forgotten). */
  forgottenTurns: number
  /** Messages sent as the memory holds them now, some of their sentences forgotten. */
  rewrittenTurns: number
  /** Whether the context was ranked with the start and end of a message longer than `maxRankedChars`. */
  requestShortened: boolean
}

/** A call's own options for the middleware, under `providerOptions.sift`. */
export interface SiftCallOptions {
  /**
   * The conversation this call's context is built from and its exchange stored in (a string; another value is
   * ignored).
   *
   * @defaultValue `SiftMemoryOptions.conversationId`
   */
  conversationId?: string
}

const DEFAULTS = { recentTurns: 6, budget: 4000, maxRankedChars: 8000, partChars: DEFAULT_PART_CHARS }

/**
 * An AI SDK language-model middleware (`wrapLanguageModel({ model, middleware: siftMemory(memory) })`) that gives
 * every call the memory of the whole conversation without sending it: for each call it builds the context for the
 * latest user message from the stored history, keeps the prompt's system messages and its last `recentTurns` turns
 * verbatim (less any the user has forgotten since), drops the older turns, and puts the context right after the
 * system prefix: its stable sections (pins, summaries) in a system message of their own, then its excerpts in
 * another, so that a provider's prompt cache finds the prefix and the stable sections unchanged. Once the call has
 * succeeded, streamed or not, it stores the user's message and the finished reply under new ids, and marks the
 * reply's text with them (`providerMetadata.sift`), so the app's copy of the thread says which stored turns it
 * holds; a call that fails, is aborted or ends in tool calls (the next step goes on) stores nothing. The memory
 * never fails a call: a context it cannot build sends the prompt as given, a turn it cannot store is reported
 * (`onStore`, and `providerMetadata.sift` of the result).
 */
export function siftMemory(memory: Memory, options: SiftMemoryOptions = {}): LanguageModelMiddleware {
  const { recentTurns = DEFAULTS.recentTurns, budget = DEFAULTS.budget, strategy, summary, remember = true } = options
  const maxRankedChars = bounded(options.maxRankedChars, DEFAULTS.maxRankedChars, 100, 100_000, 'maxRankedChars')
  const partChars = bounded(options.partChars, DEFAULTS.partChars, MIN_PART_CHARS, 100_000, 'partChars')
  const heading = options.excerptsHeading ?? DEFAULT_EXCERPTS_HEADING
  // The params object transformParams returns is the one the wrap functions receive.
  const pending = new WeakMap<ModelCallOptions, PendingExchange>()
  const stored = async (exchange: PendingExchange, reply: string): Promise<StoreReport> => {
    const report = await storeExchange(memory, exchange, reply, partChars)
    tell(options.onStore, report)
    return report
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
      const request = rankedPart(window.request, maxRankedChars)
      let report: ContextReport
      let transformed: ModelCallOptions
      try {
        const recent = await withStoredTurns(memory, window.recent)
        const context = await memory.buildContext(request, {
          budget,
          strategy,
          conversationId,
          excludeRecent: Math.max(0, window.recentTurns - recent.forgotten),
          heading,
          ...(summary !== undefined && { summary }),
        })
        const { stable, excerpts } = contextSystemTexts(context, heading)
        transformed = {
          ...passed,
          prompt: promptWithContext({ ...window, recent: recent.messages }, [...stable, ...excerpts]),
        }
        report = {
          conversationId,
          context,
          forgottenTurns: recent.forgotten,
          rewrittenTurns: recent.rewritten,
          requestShortened: request !== window.request,
        }
      } catch (error) {
        // A valid call must not fail for the memory: it goes out as the app gave it.
        transformed = passed
        report = {
          conversationId,
          error: asSiftError(error, 'buildContext'),
          forgottenTurns: 0,
          rewrittenTurns: 0,
          requestShortened: request !== window.request,
        }
      }
      tell(options.onContext, report)
      if (remember) {
        pending.set(transformed, {
          ids: exchangeIds(window.current[0], window.current.slice(1)),
          conversationId,
          request: window.request,
          replySoFar: window.replySoFar,
          forgotten: window.forgotten,
          startedAt: Date.now(),
          context: report.context?.stats,
        })
      }
      return transformed
    },
    wrapGenerate: async ({ doGenerate, params }) => {
      const result = await doGenerate()
      const exchange = pending.get(params)
      if (!exchange) return result
      const ending = endingOf(result.finishReason)
      if (ending === 'none') return result
      const report =
        ending === 'store' ? await stored(exchange, joinReply(exchange.replySoFar, textOf(result))) : undefined
      // The next step of a multi-step call finds the ids on this step's text; a stored reply's text names it.
      const marked = ending === 'steps' || report?.error === undefined
      return {
        ...result,
        content: marked
          ? result.content.map((part) =>
              part.type === 'text' ? { ...part, providerMetadata: markOf(part.providerMetadata, exchange) } : part,
            )
          : result.content,
        providerMetadata: { ...result.providerMetadata, sift: callMetadata(exchange, report) },
      }
    },
    wrapStream: async ({ doStream, params }) => {
      const result = await doStream()
      const exchange = pending.get(params)
      if (!exchange) return result
      let text = ''
      let finishReason: ModelFinishReason | undefined
      let failed = false
      // The ends of the text parts and the finish wait for the store: a text is marked only once it is stored.
      const held: ModelStreamPart[] = []
      const stream = result.stream.pipeThrough(
        new TransformStream<ModelStreamPart, ModelStreamPart>({
          transform(part, controller) {
            if (part.type === 'text-delta') text += part.delta
            else if (part.type === 'error') failed = true
            if (part.type === 'finish') finishReason = part.finishReason
            if (part.type === 'text-end' || part.type === 'finish') held.push(part)
            else controller.enqueue(part)
          },
          // Not called when the stream errors or is cancelled (an abort): nothing is stored then.
          async flush(controller) {
            const ending = failed || !finishReason ? 'none' : endingOf(finishReason)
            const report = ending === 'store' ? await stored(exchange, joinReply(exchange.replySoFar, text)) : undefined
            const marked = ending === 'steps' || (ending === 'store' && report?.error === undefined)
            for (const part of held) {
              if (part.type === 'text-end' && marked)
                controller.enqueue({ ...part, providerMetadata: markOf(part.providerMetadata, exchange) })
              else if (part.type === 'finish' && ending !== 'none')
                controller.enqueue({
                  ...part,
                  providerMetadata: { ...part.providerMetadata, sift: callMetadata(exchange, report) },
                })
              else controller.enqueue(part)
            }
          },
        }),
      )
      return { ...result, stream }
    },
  }
}

/**
 * What a call's ending means for its exchange: `'store'` when it ended with the reply it was for, `'steps'` when it
 * ended in tool calls a next step answers (the exchange is stored then), `'none'` in error.
 */
function endingOf(reason: ModelFinishReason): 'store' | 'steps' | 'none' {
  return reason.unified === 'error' ? 'none' : reason.unified === 'tool-calls' ? 'steps' : 'store'
}

function textOf(result: ModelGenerateResult): string {
  return result.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('')
}

/** The reply stored: the text of this call's earlier steps, then this step's. */
function joinReply(soFar: string, text: string): string {
  return soFar === '' ? text : text === '' ? soFar : `${soFar}\n\n${text}`
}

/** A reply's text part's provider metadata with the exchange's mark: the stored reply, and the message it answers. */
function markOf<M extends Record<string, Record<string, unknown>>>(metadata: M | undefined, exchange: PendingExchange) {
  return withMark(metadata, { id: exchange.ids.reply, requestId: exchange.ids.user })
}

/** `providerMetadata.sift` of a call's result: what its context was, and what was stored (JSON values only). */
function callMetadata(exchange: PendingExchange, report: StoreReport | undefined) {
  return {
    context: exchange.context === undefined ? null : JSON.parse(JSON.stringify(exchange.context)),
    stored: report?.ids ?? [],
    storeError: report?.error === undefined ? null : { code: report.error.code, message: report.error.message },
  }
}

/** Calls an app's callback after the current job: its error shows as the app's, and never fails the call. */
function tell<T>(callback: ((report: T) => void) | undefined, report: T): void {
  if (callback) queueMicrotask(() => callback(report))
}

/** An option that must be an integer in a range: a wrong one is the app's bug, told when the middleware is made. */
function bounded(value: number | undefined, fallback: number, min: number, max: number, name: string): number {
  if (value === undefined) return fallback
  if (!Number.isInteger(value) || value < min || value > max)
    throw new SiftError('INVALID_INPUT', `siftMemory: ${name} must be an integer from ${min} to ${max}, got ${value}.`)
  return value
}
