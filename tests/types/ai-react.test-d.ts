// The middleware's and the React hook's public surface as an app's compiler sees it (`sift-memory/ai`,
// `sift-memory/react`): what `siftMemory` takes and returns, what `useMemory` takes and gives back, and that what it
// gives back fits the AI SDK's `useChat` and the middleware. A change fails here, made on purpose or not at all.
import type { LanguageModelMiddleware, Tool, UIMessage } from 'ai'
import { describe, expectTypeOf, it } from 'vitest'
import {
  type ContextReport,
  type ForgetInput,
  type ForgetResult,
  type ForgetStatement,
  type ForgetToolOptions,
  forgetTool,
  recallTool,
  type SiftCallOptions,
  type SiftMemoryOptions,
  siftMemory,
  type StoreReport,
  userMessage,
} from '../../src/ai'
import type { BuildContextOptions, IndexProgress, Memory, MemoryOptions, SiftError } from '../../src/index'
import { type ChatUIMessage, type MemoryState, type UseMemoryOptions, useMemory, useStoredChat } from '../../src/react'

declare const memory: Memory

describe('siftMemory (sift-memory/ai)', () => {
  it('wraps a memory as an AI SDK language-model middleware', () => {
    expectTypeOf(siftMemory).parameters.toEqualTypeOf<[memory: Memory, options?: SiftMemoryOptions]>()
    expectTypeOf(siftMemory).returns.toEqualTypeOf<LanguageModelMiddleware>()
  })

  it('names its options, each optional, the context ones as buildContext takes them', () => {
    expectTypeOf<keyof SiftMemoryOptions>().toEqualTypeOf<
      | 'recentTurns'
      | 'budget'
      | 'conversationId'
      | 'strategy'
      | 'summary'
      | 'excerptsHeading'
      | 'remember'
      | 'maxRankedChars'
      | 'partChars'
      | 'onContext'
      | 'onStore'
    >()
    expectTypeOf<Record<string, never>>().toExtend<SiftMemoryOptions>()
    expectTypeOf<SiftMemoryOptions['budget']>().toEqualTypeOf<BuildContextOptions['budget']>()
    expectTypeOf<SiftMemoryOptions['strategy']>().toEqualTypeOf<BuildContextOptions['strategy']>()
    expectTypeOf<SiftMemoryOptions['summary']>().toEqualTypeOf<BuildContextOptions['summary']>()
    expectTypeOf<SiftMemoryOptions['onContext']>().toEqualTypeOf<((report: ContextReport) => void) | undefined>()
    expectTypeOf<SiftMemoryOptions['onStore']>().toEqualTypeOf<((report: StoreReport) => void) | undefined>()
    expectTypeOf<SiftCallOptions>().toEqualTypeOf<{ conversationId?: string }>()
    // @ts-expect-error: not an option (a misspelt `recentTurns`)
    siftMemory(memory, { recentTurn: 6 })
  })

  it('reports what each call sent and stored', () => {
    expectTypeOf<ContextReport['error']>().toEqualTypeOf<SiftError | undefined>()
    expectTypeOf<StoreReport['ids']>().toEqualTypeOf<string[]>()
  })

  it('gives the recall tool and the marked user message', () => {
    expectTypeOf(recallTool).parameter(0).toEqualTypeOf<Pick<Memory, 'buildContext'>>()
    expectTypeOf(userMessage('Hi')).toExtend<Omit<UIMessage, 'id'>>()
  })

  it('gives the forget tool: the model passes words, the app approves statements, the result says what went', () => {
    expectTypeOf(forgetTool).parameters.toEqualTypeOf<
      [memory: Pick<Memory, 'findForgettable' | 'forget'>, options?: ForgetToolOptions]
    >()
    expectTypeOf(forgetTool).returns.toEqualTypeOf<Tool<ForgetInput, ForgetResult>>()
    expectTypeOf<ForgetInput>().toEqualTypeOf<{ statement: string }>()
    expectTypeOf<NonNullable<ForgetToolOptions['confirm']>>().parameters.toEqualTypeOf<[ForgetStatement[]]>()
    expectTypeOf<ForgetResult['outcome']>().toEqualTypeOf<'forgotten' | 'nothing-matched' | 'declined'>()
  })
})

describe('useMemory (sift-memory/react)', () => {
  it('takes the memory options, and which messages to read', () => {
    expectTypeOf(useMemory).parameters.toEqualTypeOf<[options?: UseMemoryOptions]>()
    expectTypeOf<UseMemoryOptions>().toExtend<MemoryOptions>()
    expectTypeOf<Exclude<keyof UseMemoryOptions, keyof MemoryOptions>>().toEqualTypeOf<'conversationId' | 'limit'>()
  })

  it('returns the memory once open, its state and its latest messages', () => {
    expectTypeOf(useMemory).returns.toEqualTypeOf<MemoryState>()
    expectTypeOf<MemoryState>().toEqualTypeOf<{
      memory: Memory | undefined
      error: SiftError | undefined
      modelReady: boolean
      progress: IndexProgress | undefined
      messages: ChatUIMessage[] | undefined
      refresh: () => void
      changes: number
    }>()
  })

  it('gives messages the AI SDK takes, and a memory the middleware takes', () => {
    expectTypeOf<ChatUIMessage>().toExtend<UIMessage>()
    expectTypeOf<NonNullable<MemoryState['memory']>>().toEqualTypeOf<Memory>()
    expectTypeOf(useStoredChat<UIMessage>)
      .parameter(0)
      .toEqualTypeOf<MemoryState>()
  })
})
