// The memory's public surface as an app's compiler sees it: `Memory`'s methods, what `buildContext` takes and gives
// back, and what `createMemory` takes, in each entry. A change to any of them fails here (vitest typecheck, and the
// type check npm test runs first), so it is made on purpose, with the docs that describe it.
import { describe, expectTypeOf, it } from 'vitest'
import {
  type BuildContextOptions,
  type Context,
  type ContextSections,
  type ContextItem,
  type ContextStats,
  createMemory,
  type ForgetSelector,
  type ForgettableMatch,
  type ForgetRequest,
  type FindForgettableOptions,
  type Memory,
  type MemoryOptions,
  type MemoryStats,
  type MessageInput,
  type MessagePage,
  type MessagesOptions,
  type Pin,
  type SetSummaryOptions,
  type Strategy,
  type Summary,
  type TokenBudget,
} from '../../src/index'
import type { NodeMemoryOptions } from '../../src/node-options'

declare const memory: Memory

describe('createMemory', () => {
  it('takes the memory options and resolves with a Memory; Node’s options are the same and where IndexedDB is', () => {
    expectTypeOf(createMemory).parameters.toEqualTypeOf<[options?: MemoryOptions]>()
    expectTypeOf(createMemory).returns.toEqualTypeOf<Promise<Memory>>()
    // sift-memory/node's createMemory takes NodeMemoryOptions (its signature is in src/node.ts, which brings the whole
    // engine into this check: tsc checks it already).
    expectTypeOf<NodeMemoryOptions>().toExtend<MemoryOptions>()
    // `tuning` is @internal: left out of the published declarations.
    expectTypeOf<Exclude<keyof NodeMemoryOptions, keyof MemoryOptions | 'tuning'>>().toEqualTypeOf<
      'indexedDB' | 'IDBKeyRange' | 'embeddingCacheDir'
    >()
  })

  it('names its options', () => {
    expectTypeOf<keyof MemoryOptions>().toEqualTypeOf<
      | 'name'
      | 'model'
      | 'embedding'
      | 'device'
      | 'localModelPath'
      | 'wasmPaths'
      | 'allowRemoteModels'
      | 'onProgress'
      | 'maxMessageChars'
      | 'maxRequestChars'
      | 'strictRanking'
      | 'requireModelFiles'
      | 'persist'
      | 'passphrase'
      | 'key'
      | 'sync'
    >()
    expectTypeOf<MemoryOptions['device']>().toEqualTypeOf<'auto' | 'webgpu' | 'wasm' | undefined>()
    expectTypeOf<MemoryOptions['key']>().toEqualTypeOf<CryptoKey | undefined>()
    // @ts-expect-error: not an option (a misspelt `name`)
    void createMemory({ nam: 'chat' })
  })
})

describe('Memory', () => {
  it('has the methods the docs describe, and no others', () => {
    expectTypeOf<keyof Memory>().toEqualTypeOf<
      | 'add'
      | 'indexed'
      | 'ready'
      | 'buildContext'
      | 'forget'
      | 'findForgettable'
      | 'findForgetRequest'
      | 'synced'
      | 'messages'
      | 'pin'
      | 'unpin'
      | 'pins'
      | 'setSummary'
      | 'summary'
      | 'clearSummary'
      | 'clear'
      | 'export'
      | 'import'
      | 'changeKey'
      | 'stats'
      | 'close'
    >()
  })

  it('stores one message or several, resolving with their ids', () => {
    expectTypeOf(memory.add).parameters.toEqualTypeOf<[message: MessageInput | MessageInput[]]>()
    expectTypeOf(memory.add).returns.toEqualTypeOf<Promise<string[]>>()
    expectTypeOf<MessageInput['timestamp']>().toEqualTypeOf<number | string | Date | undefined>()
  })

  it('builds a context from a request and its options', () => {
    expectTypeOf(memory.buildContext).parameters.toEqualTypeOf<[request: string, options?: BuildContextOptions]>()
    expectTypeOf(memory.buildContext).returns.toEqualTypeOf<Promise<Context>>()
    // @ts-expect-error: not an option (a misspelt `budget`)
    void memory.buildContext('Which dog?', { budgt: 4000 })
  })

  it('forgets by a selector, resolving with how many it removed; finds what a "forget that" request means', () => {
    expectTypeOf(memory.forget).parameters.toEqualTypeOf<[selector: ForgetSelector]>()
    expectTypeOf(memory.forget).returns.toEqualTypeOf<Promise<number>>()
    expectTypeOf({ sentences: [{ messageId: 'm1', start: 0, end: 10 }] }).toExtend<ForgetSelector>()
    expectTypeOf({ before: new Date() }).toExtend<ForgetSelector>()
    expectTypeOf(memory.findForgettable).parameters.toEqualTypeOf<[text: string, options?: FindForgettableOptions]>()
    expectTypeOf(memory.findForgettable).returns.toEqualTypeOf<Promise<ForgettableMatch[]>>()
    expectTypeOf(memory.findForgetRequest).parameters.toEqualTypeOf<[text: string]>()
    expectTypeOf(memory.findForgetRequest).returns.toEqualTypeOf<Promise<ForgetRequest | undefined>>()
  })

  it('pages through messages, pins and summaries', () => {
    expectTypeOf(memory.messages).parameters.toEqualTypeOf<[options?: MessagesOptions]>()
    expectTypeOf(memory.messages).returns.toEqualTypeOf<Promise<MessagePage>>()
    expectTypeOf<MessagePage['revision']>().toEqualTypeOf<number>()
    expectTypeOf(memory.pins).returns.toEqualTypeOf<Promise<Pin[]>>()
    expectTypeOf(memory.setSummary).parameters.toEqualTypeOf<
      [conversationId: string, text: string, options: SetSummaryOptions]
    >()
    expectTypeOf(memory.summary).returns.toEqualTypeOf<Promise<Summary | undefined>>()
    expectTypeOf<Summary['state']>().toEqualTypeOf<'current' | 'dropped'>()
  })

  it('says its stats, and closes', () => {
    expectTypeOf(memory.stats).returns.toEqualTypeOf<Promise<MemoryStats>>()
    expectTypeOf<MemoryStats['modelState']>().toEqualTypeOf<'loading' | 'ready' | 'unavailable'>()
    expectTypeOf<MemoryStats['wordNeighbours']>().toEqualTypeOf<
      { state: 'loading' } | { state: 'ready' } | { state: 'unavailable'; reason: string }
    >()
    expectTypeOf(memory.close).returns.toEqualTypeOf<Promise<void>>()
  })
})

describe('BuildContextOptions', () => {
  it('names its options, each optional', () => {
    expectTypeOf<keyof BuildContextOptions>().toEqualTypeOf<
      | 'budget'
      | 'strategy'
      | 'conversationId'
      | 'recentTurns'
      | 'excludeRecent'
      | 'summary'
      | 'queries'
      | 'adaptiveStop'
      | 'followUpdates'
      | 'heading'
    >()
    expectTypeOf<Record<string, never>>().toExtend<BuildContextOptions>()
  })

  it('takes a budget in characters or in tokens', () => {
    expectTypeOf<BuildContextOptions['budget']>().toEqualTypeOf<number | TokenBudget | undefined>()
    expectTypeOf({ tokens: 500, tokenizer: 'o200k_base' }).toExtend<TokenBudget>()
    expectTypeOf({ tokens: 500, tokenizer: '/tokenizers/llama/tokenizer.json' }).toExtend<TokenBudget>()
  })

  it('takes a strategy, the summaries’ share or false, and extra queries', () => {
    expectTypeOf<BuildContextOptions['strategy']>().toEqualTypeOf<Strategy | undefined>()
    expectTypeOf<Strategy>().toEqualTypeOf<'hybrid' | 'dense' | 'lexical' | 'head' | 'tail' | 'full'>()
    expectTypeOf<BuildContextOptions['summary']>().toEqualTypeOf<false | { maxShare?: number } | undefined>()
    expectTypeOf<BuildContextOptions['queries']>().toEqualTypeOf<string[] | undefined>()
  })
})

describe('Context', () => {
  it('is the text, its items, the text split into its stable sections and its excerpts, and its stats', () => {
    expectTypeOf<Context>().toEqualTypeOf<{
      text: string
      items: ContextItem[]
      sections: ContextSections
      stats: ContextStats
    }>()
    expectTypeOf<ContextSections>().toEqualTypeOf<{ stable: string; excerpts: string }>()
  })

  it('says of each item where it is from and why it is there', () => {
    expectTypeOf<ContextItem['reason']>().toEqualTypeOf<
      'pinned' | 'relevant' | 'recent' | 'neighbor' | 'position' | 'update' | 'neighbour'
    >()
    expectTypeOf<ContextItem>().toHaveProperty('messageId').toEqualTypeOf<string>()
    expectTypeOf<ContextItem>().toHaveProperty('start').toEqualTypeOf<number>()
    expectTypeOf<ContextItem>().toHaveProperty('end').toEqualTypeOf<number>()
    expectTypeOf<ContextItem>().toHaveProperty('score').toEqualTypeOf<number>()
    expectTypeOf<ContextItem['ranks']>().toEqualTypeOf<{ lexical?: number; dense?: number } | undefined>()
    expectTypeOf<ContextItem['supersededBy']>().toEqualTypeOf<string | undefined>()
  })

  it('says what the context took and how it was ranked', () => {
    expectTypeOf<ContextStats['stoppedBy']>().toEqualTypeOf<'budget' | 'exhausted' | 'cliff'>()
    expectTypeOf<ContextStats['ranking']>().toEqualTypeOf<Strategy>()
    expectTypeOf<ContextStats['degraded']>().toEqualTypeOf<string | undefined>()
    expectTypeOf<ContextStats['tokens']>().toEqualTypeOf<
      { budget: number; used: number; fill: number; tokenizer: TokenBudget['tokenizer'] } | undefined
    >()
    expectTypeOf<ContextStats['pinned']>().toEqualTypeOf<
      { messages: string[]; chars: number; left: string[] } | undefined
    >()
    expectTypeOf<ContextStats['summary']>().toEqualTypeOf<
      { conversations: string[]; chars: number; left: string[]; dropped: string[] } | undefined
    >()
  })
})
