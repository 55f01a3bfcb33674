// Random sequences of chat calls through sift-memory/ai (the real AI SDK over HTTP to the fake LLM, a real memory):
// repeated texts, regenerated replies, aborted and failed calls, long turns and new threads. Every turn the app was
// shown as finished is stored exactly once, and nothing else is.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import { generateText, type ModelMessage, streamText, wrapLanguageModel } from 'ai'
import fc from 'fast-check'
import { IDBFactory } from 'fake-indexeddb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeLlm, type FakeLlm } from '../../e2e/fake-llm'
import { siftMemory, userMessage } from '../../src/ai'
import { createMemory } from '../../src/node'

let llm: FakeLlm
beforeAll(async () => {
  llm = await startFakeLlm()
})
afterAll(async () => {
  await llm?.close()
})

const TEXTS = ['yes', 'yes', 'Hi!', 'thanks', 'My flight is on Tuesday.', 'Book the hotel [long: 70000]']
type Step =
  | { kind: 'say'; text: string; streamed: boolean; whole: boolean; marked: boolean }
  | { kind: 'regenerate'; streamed: boolean }
  | { kind: 'abort' }
  | { kind: 'fail' }
  | { kind: 'paste' }
  | { kind: 'new thread' }

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('say' as const),
      text: fc.constantFrom(...TEXTS),
      streamed: fc.boolean(),
      whole: fc.boolean(),
      marked: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('regenerate' as const), streamed: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'abort' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'fail' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'paste' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'new thread' as const }) },
)

/** A user message as the app sends it, marked (as `userMessage` makes it) or not. */
function asked(text: string, marked: boolean): ModelMessage {
  if (!marked) return { role: 'user', content: text }
  const [part] = userMessage(text).parts
  return { role: 'user', content: [{ type: 'text', text, providerOptions: part.providerMetadata }] }
}

describe('siftMemory under random sequences of calls', () => {
  it('stores every acknowledged turn exactly once, and nothing else', async () => {
    let run = 0
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 6, maxLength: 14 }), async (steps) => {
        const memory = await createMemory({ name: `ai-seq-${run++}`, indexedDB: new IDBFactory() })
        try {
          const model = wrapLanguageModel({
            model: createOpenAICompatible({ name: 'fake', baseURL: llm.baseURL }).chatModel('m'),
            middleware: siftMemory(memory, { conversationId: 'chat', recentTurns: 4, partChars: 20_000 }),
          })
          // The reference: each acknowledged exchange, its reply replaced by a regenerate.
          const expected: { user: string; reply: string }[] = []
          let thread: ModelMessage[] = []
          let last: { message: ModelMessage; before: ModelMessage[]; index: number } | undefined
          const call = async (messages: ModelMessage[], streamed: boolean) => {
            if (!streamed) return (await generateText({ model, messages, maxRetries: 0 })).text
            return await streamText({ model, messages, maxRetries: 0, onError: () => {} }).text
          }
          for (const s of steps) {
            if (s.kind === 'new thread') {
              thread = []
              last = undefined
            } else if (s.kind === 'say' || s.kind === 'paste') {
              const text = s.kind === 'paste' ? `Pasted: ${'Lorem ipsum dolor sit amet. '.repeat(1500)}` : s.text
              const message = asked(text, s.kind === 'say' && s.marked)
              const before = s.kind === 'say' && !s.whole ? [] : thread
              const reply = await call([...before, message], s.kind === 'say' && s.streamed)
              expected.push({ user: text, reply })
              last = { message, before, index: expected.length - 1 }
              thread = [...before, message, { role: 'assistant', content: reply }]
            } else if (s.kind === 'regenerate' && last) {
              const reply = await call([...last.before, last.message], s.streamed)
              // A marked message's reply is replaced; an unmarked one is a new exchange (nothing tells it apart).
              if (typeof last.message.content === 'string') expected.push({ user: last.message.content, reply })
              else expected[last.index].reply = reply
              thread = [...last.before, last.message, { role: 'assistant', content: reply }]
            } else if (s.kind === 'abort') {
              const abort = new AbortController()
              const slow = streamText({ model, prompt: 'Slowly [slow]', abortSignal: abort.signal, onError: () => {} })
              for await (const _ of slow.textStream) abort.abort()
            } else if (s.kind === 'fail') {
              await expect(generateText({ model, prompt: 'Now [fail]', maxRetries: 0 })).rejects.toThrow()
            }
          }
          const stored = (await memory.messages({ limit: 1000 })).messages
          const turns = new Map<string, string>()
          for (const m of stored) {
            const id = m.id.replace(/:\d+$/, '')
            turns.set(id, (turns.get(id) ?? '') + m.content)
          }
          const got = [...turns.values()].sort()
          const want = expected.flatMap((e) => [e.user, e.reply]).sort()
          expect(got).toEqual(want)
        } finally {
          await memory.close()
        }
      }),
      { numRuns: 5, seed: 2812 },
    )
  })
})
