// sift-memory/ai with the real AI SDK (`generateText`, `streamText`, `wrapLanguageModel`) and its real
// OpenAI-compatible provider, over HTTP to the fake LLM (e2e/fake-llm.ts), against a real memory (Node entry): what
// the LLM receives, and what is stored when a call succeeds, fails, is aborted or is retried.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import { generateText, stepCountIs, streamText, wrapLanguageModel, type ModelMessage } from 'ai'
import { IDBFactory } from 'fake-indexeddb'
import { encode } from 'gpt-tokenizer/encoding/o200k_base'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { CHAT_HISTORY, DOG_TURN } from '../../e2e/chat-history'
import { messageText, startFakeLlm, type ChatRequest, type FakeLlm } from '../../e2e/fake-llm'
import { type ContextReport, recallTool, siftMemory, type StoreReport, userMessage } from '../../src/ai'
import { createMemory, type Memory, type StoredMessage } from '../../src/node'

const SYSTEM = 'You are a helpful assistant.'
const RECENT = 4

let llm: FakeLlm
let memory: Memory
let run = 0
const warnings: unknown[] = []

beforeAll(async () => {
  llm = await startFakeLlm()
  vi.spyOn(console, 'warn').mockImplementation((...args) => warnings.push(args))
})
afterAll(async () => {
  await llm?.close()
  vi.restoreAllMocks()
})
afterEach(async () => {
  await memory?.close()
})

/** A fresh memory, the model loaded, and a model wrapped with the middleware over the fake LLM. */
async function setUp(options: Parameters<typeof siftMemory>[1] = {}) {
  memory = await createMemory({ name: `ai-${run++}`, indexedDB: new IDBFactory() })
  await memory.ready()
  const provider = createOpenAICompatible({ name: 'fake', baseURL: llm.baseURL })
  const model = wrapLanguageModel({
    model: provider.chatModel('fake-model'),
    middleware: siftMemory(memory, { recentTurns: RECENT, budget: 450, ...options }),
  })
  return { memory, model }
}

/** The chat as `useChat` sends it: every turn so far, then the new message. */
function thread(history: readonly ModelMessage[], text: string): ModelMessage[] {
  return [...history, { role: 'user', content: text }]
}

/** Has the model answer every CHAT_HISTORY turn, through the middleware, keeping the whole thread as a chat app does. */
async function chatThrough(model: ReturnType<typeof wrapLanguageModel>, streamed: boolean): Promise<ModelMessage[]> {
  let history: ModelMessage[] = []
  for (const text of CHAT_HISTORY) {
    const messages = thread(history, text)
    const reply = streamed
      ? await streamText({ model, system: SYSTEM, messages }).text
      : (await generateText({ model, system: SYSTEM, messages })).text
    history = [...messages, { role: 'assistant', content: reply }]
  }
  return history
}

async function stored(): Promise<StoredMessage[]> {
  return (await memory.messages({ limit: 1000 })).messages
}

const lastRequest = (): ChatRequest => llm.requests.at(-1)!

describe('siftMemory, the AI SDK middleware', () => {
  it.each([false, true])(
    'sends the system prompt, the context and the last turns, never the whole history, and stores each finished exchange (streamed: %s)',
    async (streamed) => {
      const { model } = await setUp()
      const history = await chatThrough(model, streamed)
      await memory.indexed()
      expect((await stored()).map((m) => [m.role, m.content])).toEqual(history.map((m) => [m.role, m.content]))

      const question = 'What do I call my pet?'
      const asked = llm.requests.length
      const reply = streamed
        ? await streamText({ model, system: SYSTEM, messages: thread(history, question) }).text
        : (await generateText({ model, system: SYSTEM, messages: thread(history, question) })).text
      expect(llm.requests).toHaveLength(asked + 1)
      const [system, excerpts, ...turns] = lastRequest().messages
      expect(system).toEqual({ role: 'system', content: SYSTEM })
      expect(excerpts.role).toBe('system')
      expect(messageText(excerpts)).toMatch(/^Excerpts from earlier in this conversation:\n/)
      // The fact said early reaches the LLM though the question shares no word with it.
      expect(messageText(excerpts)).toContain('named her Biscuit')
      // The last RECENT turns verbatim, then the question; nothing older.
      expect(turns.map((m) => [m.role, messageText(m)])).toEqual(
        [...history.slice(-RECENT), { role: 'user', content: question }].map((m) => [m.role, m.content]),
      )
      // No excerpt repeats a turn sent verbatim.
      for (const turn of history.slice(-RECENT)) expect(messageText(excerpts)).not.toContain(String(turn.content))
      const sentChars = lastRequest().messages.reduce((sum, m) => sum + messageText(m).length, 0)
      const historyChars = history.reduce((sum, m) => sum + String(m.content).length, 0)
      expect(sentChars).toBeLessThan(historyChars)
      expect((await stored()).slice(-2).map((m) => [m.role, m.content])).toEqual([
        ['user', question],
        ['assistant', reply],
      ])
      // The system prompt went as `system`: the AI SDK has nothing to warn about.
      expect(warnings).toEqual([])
    },
  )

  it('sends the pins and the summary in a system message of their own before the excerpts, the same from call to call', async () => {
    const { model } = await setUp({ budget: 1200 })
    const history = await chatThrough(model, false)
    await memory.indexed()
    const turns = await stored()
    const peanuts = turns.find((m) => m.content.includes('peanuts'))!
    await memory.pin(peanuts.id)
    const summary = 'The user moved to Leeds for a library job and is learning the cello.'
    await memory.setSummary('default', summary, { through: turns[1].id })
    const stableMessages: unknown[] = []
    for (const question of ['What do I call my pet?', 'Who visits me in August?']) {
      await generateText({ model, system: SYSTEM, messages: thread(history, question) })
      const [system, stable, excerpts, ...rest] = lastRequest().messages
      expect(system).toEqual({ role: 'system', content: SYSTEM })
      expect(stable.role).toBe('system')
      expect(messageText(stable)).toMatch(
        /^Pinned:\nuser \([^)]+\): I cannot eat peanuts[^\n]+\n\nSummary of the conversation up to [^\n]+:\n/,
      )
      expect(messageText(stable).endsWith(`:\n${summary}`)).toBe(true)
      expect(excerpts.role).toBe('system')
      expect(messageText(excerpts)).toMatch(/^Excerpts from earlier in this conversation:\n(user|assistant) \(/)
      expect(messageText(excerpts)).not.toContain('peanuts')
      expect(messageText(excerpts)).not.toContain(summary)
      expect(messageText(excerpts)).not.toContain('From the conversation:')
      expect(rest[0].role).not.toBe('system')
      stableMessages.push(stable)
    }
    expect(messageText(lastRequest().messages[2])).toContain('Ines')
    // What a prefix cache reuses: the system prompt and the stable message, unchanged from the call before.
    expect(stableMessages[1]).toEqual(stableMessages[0])
  })

  it('takes a budget in the LLM tokens, as buildContext does: the excerpts it sends fit it', async () => {
    const tokens = 60
    const { model } = await setUp({ budget: { tokens, tokenizer: 'o200k_base' } })
    const history = await chatThrough(model, false)
    await memory.indexed()
    await generateText({ model, system: SYSTEM, messages: thread(history, 'What do I call my pet?') })
    // The whole message the memory adds, its heading included, is within the budget.
    const excerpts = messageText(lastRequest().messages[1])
    expect(excerpts).toMatch(/^Excerpts from earlier in this conversation:\n./)
    expect(encode(excerpts).length).toBeLessThanOrEqual(tokens)
    expect(encode(excerpts).length).toBeGreaterThan(tokens * 0.5)
  })

  it('stores nothing when the call fails, when the stream breaks off, carries an error or is aborted', async () => {
    const { model } = await setUp()
    await generateText({ model, system: SYSTEM, prompt: 'First things first.' })
    const before = await stored()
    expect(before).toHaveLength(2)

    await expect(generateText({ model, prompt: 'Please [fail] now.', maxRetries: 0 })).rejects.toThrow()
    const failedStream = streamText({ model, prompt: 'Please [fail] now, streamed.', maxRetries: 0, onError: () => {} })
    await expect(failedStream.text).rejects.toThrow()

    const dropped = streamText({ model, prompt: 'This one will [drop].', onError: () => {} })
    await expect(dropped.text).rejects.toThrow()
    // An error the provider reads in the stream: the stream goes on to its end, with the error in it.
    const errors: unknown[] = []
    const broken = streamText({ model, prompt: 'This one has an [error].', onError: (e) => void errors.push(e) })
    await broken.consumeStream()
    expect(errors).toHaveLength(1)

    const abort = new AbortController()
    const slow = streamText({ model, prompt: 'Tell me slowly [slow].', abortSignal: abort.signal, onError: () => {} })
    const words: string[] = []
    for await (const word of slow.textStream) {
      words.push(word)
      if (words.length === 2) abort.abort()
    }
    expect(words.length).toBeLessThan(10)
    expect(await stored()).toEqual(before)
  })

  it('stores a repeated message as a new exchange: the app that sends only the latest message loses no turn', async () => {
    const { model } = await setUp({ conversationId: 'chat' })
    const replies: string[] = []
    for (const text of ['Shall we book the Lisbon flight?', 'yes', 'And the hotel in Alfama?', 'yes'])
      replies.push((await generateText({ model, system: SYSTEM, messages: thread([], text) })).text)
    const shown = ['Shall we book the Lisbon flight?', 'yes', 'And the hotel in Alfama?', 'yes'].flatMap((t, i) => [
      ['user', t],
      ['assistant', replies[i]],
    ])
    expect((await stored()).map((m) => [m.role, m.content])).toEqual(shown)
    // A new thread that opens with an earlier thread's first message, under the same conversation id.
    const first = (await generateText({ model, messages: thread([], 'Hi!') })).text
    await generateText({
      model,
      messages: thread([...thread([], 'Hi!'), { role: 'assistant', content: first }], 'Tuesday.'),
    })
    const again = (await generateText({ model, messages: thread([], 'Hi!') })).text
    const contents = (await stored()).map((m) => m.content)
    expect(contents).toHaveLength(14)
    expect(contents).toContain(first)
    expect(contents).toContain(again)
    const ids = (await stored()).map((m) => m.id)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it("regenerates a marked message's reply in place: the message stored once, the latest reply kept", async () => {
    const { model } = await setUp()
    const asked = userMessage('My locker code is 4471.')
    const mark = asked.parts[0].providerMetadata
    // The message as useChat sends it: its text part carries the mark (convertToModelMessages keeps it).
    const messages: ModelMessage[] = [
      { role: 'user', content: [{ type: 'text', text: asked.parts[0].text, providerOptions: mark }] },
    ]
    const first = await generateText({ model, system: SYSTEM, messages })
    const again = await generateText({ model, system: SYSTEM, messages })
    expect(again.text).not.toBe(first.text)
    const after = await stored()
    expect(after.map((m) => [m.role, m.content])).toEqual([
      ['user', 'My locker code is 4471.'],
      ['assistant', again.text],
    ])
    expect(after[0].id).toBe(mark.sift.id)
    expect(after[1].id).toBe(`${mark.sift.id}-reply`)
    expect(again.providerMetadata?.sift).toMatchObject({ stored: [`${mark.sift.id}-reply`] })
  })

  it('never fails a call for long turns: ranks with a bounded request, stores long turns in parts', async () => {
    const reports: ContextReport[] = []
    const { model } = await setUp({ onContext: (report) => reports.push(report) })
    const pasted = `Please read this. ${'The quarterly figures went up again. '.repeat(2900)}What do you think?`
    expect(pasted.length).toBeGreaterThan(100_000)
    const first = await generateText({ model, system: SYSTEM, prompt: pasted })
    await Promise.resolve()
    expect(reports.at(-1)).toMatchObject({ requestShortened: true })
    expect(reports.at(-1)?.error).toBeUndefined()
    const reply = await generateText({ model, system: SYSTEM, prompt: 'Write it out [long: 120000]' })
    expect(reply.text).toHaveLength(120_000)
    const streamed = streamText({ model, system: SYSTEM, prompt: 'Once more, streamed [long: 120000]' })
    expect(await streamed.text).toHaveLength(120_000)
    const all = await stored()
    // Each turn's parts join back to it, in order, each within the memory's limit.
    const turns = new Map<string, string>()
    for (const m of all) {
      const id = m.id.replace(/:\d+$/, '')
      turns.set(id, (turns.get(id) ?? '') + m.content)
      expect(m.content.length).toBeLessThanOrEqual(50_000)
    }
    expect([...turns.values()]).toEqual([
      pasted,
      first.text,
      'Write it out [long: 120000]',
      reply.text,
      'Once more, streamed [long: 120000]',
      await streamed.text,
    ])
  })

  it('reports what it could not store, and a context it could not build, without failing the call', async () => {
    const contexts: ContextReport[] = []
    const stores: StoreReport[] = []
    const { model } = await setUp({ onContext: (r) => contexts.push(r), onStore: (r) => stores.push(r) })
    const ok = await generateText({ model, system: SYSTEM, prompt: 'First things first.' })
    await Promise.resolve()
    expect(contexts.at(-1)?.context?.stats.ranking).toBe('hybrid')
    expect(ok.providerMetadata?.sift).toMatchObject({ stored: stores.at(-1)?.ids, storeError: null })
    await memory.close()
    const closed = await generateText({ model, system: SYSTEM, prompt: 'Still there?' })
    const streamed = streamText({ model, system: SYSTEM, prompt: 'Still there, streamed?' })
    expect(await streamed.text).toMatch(/^Noted/)
    await Promise.resolve()
    expect(closed.text).toMatch(/^Noted/)
    expect(contexts.slice(-2).map((r) => r.error?.code)).toEqual(['CLOSED', 'CLOSED'])
    expect(stores.slice(-2).map((r) => r.error?.code)).toEqual(['CLOSED', 'CLOSED'])
    expect(closed.providerMetadata?.sift).toMatchObject({ stored: [], storeError: { code: 'CLOSED' } })
    // The prompt went as the app gave it.
    expect(lastRequest().messages.map((m) => messageText(m))).toEqual([SYSTEM, 'Still there, streamed?'])
  })

  it.each([false, true])(
    'leaves out of the turns it sends verbatim what the user forgot since, whole or by sentence (streamed: %s)',
    async (streamed) => {
      // Every turn below is sent verbatim: what reaches the request is the check's doing, not the ranking's.
      const { model } = await setUp({ recentTurns: 8 })
      let history: ModelMessage[] = []
      const say = async (text: string) => {
        const messages = thread(history, text)
        const result = streamed
          ? streamText({ model, system: SYSTEM, messages })
          : await generateText({ model, system: SYSTEM, messages })
        // The thread as an app keeps it: the reply's messages as the AI SDK gives them, marks included.
        history = [...messages, ...(await result.response).messages]
      }
      await say('My old address was 12 Elm Street. I moved last spring.')
      await say('The cat is called Pixel.')
      await say('I work at the bakery.')
      const all = await stored()
      const address = all.find((m) => m.content.startsWith('My old address'))!
      const cat = all.find((m) => m.content.startsWith('The cat'))!
      const catReply = all[all.indexOf(cat) + 1]
      const start = address.content.indexOf('My old')
      await memory.forget({ sentences: [{ messageId: address.id, start, end: address.content.indexOf(' I moved') }] })
      await memory.forget({ ids: [cat.id, catReply.id] })
      await say('What do you know about me?')
      const sent = JSON.stringify(lastRequest())
      expect(sent).not.toContain('12 Elm Street')
      expect(sent).not.toContain('Pixel')
      expect(sent).not.toContain(catReply.content)
      const verbatim = lastRequest()
        .messages.filter((m) => m.role !== 'system')
        .map(messageText)
      expect(verbatim).toContain('I moved last spring.')
      expect(verbatim).toContain('I work at the bakery.')
    },
  )

  it('keeps sending a marked message whose call failed: never stored is not forgotten', async () => {
    const { model } = await setUp()
    const [part] = userMessage('Please [fail] this once.').parts
    const failed: ModelMessage = {
      role: 'user',
      content: [{ type: 'text', text: part.text, providerOptions: part.providerMetadata }],
    }
    await expect(generateText({ model, messages: [failed], maxRetries: 0 })).rejects.toThrow()
    await generateText({ model, messages: [failed, { role: 'user', content: 'Try again.' }] })
    expect(JSON.stringify(lastRequest())).toContain('Please [fail] this once.')
  })

  it('stores in the conversation a call names, and builds its context from that conversation alone', async () => {
    const { model } = await setUp()
    await generateText({ model, prompt: DOG_TURN, providerOptions: { sift: { conversationId: 'pets' } } })
    await generateText({
      model,
      prompt: 'Our cat is called Pixel.',
      providerOptions: { sift: { conversationId: 'cats' } },
    })
    await memory.indexed()
    await generateText({
      model,
      prompt: 'What is the name of my dog?',
      providerOptions: { sift: { conversationId: 'cats' } },
    })
    const excerpts = lastRequest().messages.find((m) => m.role === 'system')
    expect(excerpts && messageText(excerpts)).toContain('Pixel')
    expect(JSON.stringify(lastRequest())).not.toContain('Biscuit')
    // The middleware's own option does not reach the provider.
    expect(JSON.stringify(lastRequest())).not.toContain('conversationId')
    expect((await memory.messages({ conversationId: 'pets' })).messages).toHaveLength(2)
    expect((await memory.messages({ conversationId: 'cats' })).messages).toHaveLength(4)
  })

  it("sends the conversation's summary in the stable sections' message, and none with summary: false", async () => {
    const summary = 'The user has a dog and asks about pets.'
    for (const option of [undefined, false] as const) {
      const { model } = await setUp(option === undefined ? {} : { summary: option })
      await generateText({ model, prompt: DOG_TURN, providerOptions: { sift: { conversationId: 'pets' } } })
      const [first] = (await memory.messages({ conversationId: 'pets' })).messages
      await memory.setSummary('pets', summary, { through: first.id })
      await generateText({
        model,
        prompt: 'What should I buy for my pet?',
        providerOptions: { sift: { conversationId: 'pets' } },
      })
      const excerpts = lastRequest().messages.find((m) => m.role === 'system')
      if (option === false) expect(JSON.stringify(lastRequest())).not.toContain(summary)
      else expect(excerpts && messageText(excerpts)).toContain(`Summary of the conversation up to`)
      if (option === undefined) expect(excerpts && messageText(excerpts)).toContain(summary)
      await memory.close()
    }
  })

  it('with the recall tool: the model asks once it knows the question, gets dated excerpts, and the exchange is stored once', async () => {
    const { model } = await setUp()
    const history = await chatThrough(model, false)
    await memory.indexed()
    const count = (await stored()).length
    const question = 'Remind me of my pet [recall: what the user named the greyhound]'
    const result = await generateText({
      model,
      system: SYSTEM,
      messages: thread(history, question),
      tools: { recall: recallTool(memory, { excludeRecent: RECENT }) },
      stopWhen: stepCountIs(2),
    })
    const [call, answer] = llm.requests.slice(-2)
    expect(call.tools?.map((tool) => tool.function.name)).toEqual(['recall'])
    const toolResult = answer.messages.find((m) => m.role === 'tool')!
    const excerpts = JSON.parse(messageText(toolResult)) as { excerpts: { date: string; role: string; text: string }[] }
    expect(excerpts.excerpts.some((e) => e.text.includes('named her Biscuit'))).toBe(true)
    expect(excerpts.excerpts.every((e) => /^\d{4}-\d{2}-\d{2}$/.test(e.date))).toBe(true)
    expect(result.text).toContain('named her Biscuit')
    const after = await stored()
    expect(after).toHaveLength(count + 2)
    expect(after.slice(-2).map((m) => [m.role, m.content])).toEqual([
      ['user', question],
      ['assistant', result.text],
    ])
  })
})
