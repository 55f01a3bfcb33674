// The AI SDK's language-model types this entry works with, read off the middleware type `ai` exports, so that the
// published declarations import `ai` alone (not its provider packages, which an app's package manager may not hoist).
import type { LanguageModelMiddleware } from 'ai'

/** One call's options as a middleware sees them (`LanguageModelV3CallOptions`). */
export type ModelCallOptions = Parameters<NonNullable<LanguageModelMiddleware['transformParams']>>[0]['params']
/** The prompt a model receives: system, user, assistant and tool messages (`LanguageModelV3Prompt`). */
export type ModelPrompt = ModelCallOptions['prompt']
export type ModelMessage = ModelPrompt[number]
/** What a model's `doGenerate` resolves with. */
export type ModelGenerateResult = Awaited<ReturnType<NonNullable<LanguageModelMiddleware['wrapGenerate']>>>
/** What a model's `doStream` resolves with, and the parts of its stream. */
export type ModelStreamResult = Awaited<ReturnType<NonNullable<LanguageModelMiddleware['wrapStream']>>>
export type ModelStreamPart = ModelStreamResult['stream'] extends ReadableStream<infer Part> ? Part : never
/** Why a model call ended (`LanguageModelV3FinishReason`). */
export type ModelFinishReason = ModelGenerateResult['finishReason']
