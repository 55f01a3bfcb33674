// The forget tool (sift-memory/ai's forgetTool, and forgetStatements for other SDKs) with the real AI SDK and its real
// OpenAI-compatible provider, over HTTP to the fake LLM (e2e/fake-llm.ts, which calls the tool when a message says
// `[forget: …]`), against a real memory (Node entry, the real model): what is removed once the app approves, and
// that nothing is removed otherwise.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import { generateText, type ModelMessage, stepCountIs, streamText, type ToolSet, wrapLanguageModel } from 'ai'
import { IDBFactory } from 'fake-indexeddb'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { messageText, startFakeLlm, type FakeLlm } from '../../e2e/fake-llm'
import { type ForgetResult, forgetTool, siftMemory, type StoreReport } from '../../src/ai'
import { createMemory, FORGET_TOOL, forgetStatements, findStatementsToForget, type Memory } from '../../src/node'

const DAY = 86_400_000
const START = Date.UTC(2026, 2, 2)
/** A chat whose facts share messages: a forget must take its statement and leave the message's other news. */
const HISTORY = [
  { role: 'user', content: 'We moved to 12 Oak Street in Leeds last spring. The garden has an old apple tree.' },
  { role: 'assistant', content: 'A garden with an apple tree sounds lovely.' },
  {
    role: 'user',
    content: 'I work as a librarian at the university. On Saturdays I swim forty lengths before breakfast.',
  },
  { role: 'assistant', content: 'Forty lengths is a good swim.' },
  { role: 'user', content: 'My sister Ines is a paediatric nurse in Porto.' },
  { role: 'user', content: 'I cannot eat peanuts, so I check the labels on cereal bars.' },
].map((message, i) => ({ ...message, timestamp: START + i * DAY }))

/** A chat where the assistant said a fact back: forgetting the fact must take the reply's repeat of it too. */
const REPEATED_HISTORY = [
  {
    role: 'user',
    content:
      'I have been seeing a physiotherapist for my left knee since January. We are repainting the hallway in sage green.',
  },
  {
    role: 'assistant',
    content:
      'Sticking with the physiotherapist for your left knee is wise, since knees recover slowly. Sage green is a calm colour for a hallway.',
  },
  { role: 'user', content: 'My brother Tomas flies cargo planes out of East Midlands airport.' },
  { role: 'assistant', content: 'Night flights must make for an odd sleep pattern.' },
  { role: 'user', content: 'On Sundays I bake sourdough bread for the whole street.' },
  { role: 'assistant', content: 'Sourdough for the neighbours is a generous habit.' },
].map((message, i) => ({ ...message, timestamp: START + i * DAY }))

let llm: FakeLlm
let memory: Memory
let run = 0

beforeAll(async () => {
  llm = await startFakeLlm()
})
afterAll(async () => {
  await llm?.close()
})
afterEach(async () => {
  await memory?.close()
})

/** A fresh memory holding `history`, embedded, and the fake LLM as an AI SDK model. */
async function setUp(history = HISTORY) {
  memory = await createMemory({ name: `forget-tool-${run++}`, indexedDB: new IDBFactory() })
  await memory.ready()
  await memory.add(history)
  await memory.indexed()
  return createOpenAICompatible({ name: 'fake', baseURL: llm.baseURL }).chatModel('fake-model')
}

async function storedContents(): Promise<string[]> {
  return (await memory.messages({ limit: 100 })).messages.map((m) => m.content)
}

/** A user's request to the model with the tools offered: the first step, up to the tool call and its approval request. */
async function ask(model: ReturnType<typeof setUp> extends Promise<infer M> ? M : never, text: string, tools: ToolSet) {
  const messages: ModelMessage[] = [{ role: 'user', content: text }]
  const result = await generateText({ model, messages, tools, stopWhen: stepCountIs(2) })
  return { messages: [...messages, ...result.response.messages], result }
}

/** The app's answer to the pending approval request, and the run that follows it: the tool's result, the reply. */
async function answerApproval(
  model: Parameters<typeof ask>[0],
  asked: Awaited<ReturnType<typeof ask>>,
  tools: ToolSet,
  approved: boolean,
) {
  const request = partsOf(asked.result).find((part) => part.type === 'tool-approval-request')
  expect(request, 'the call waits for approval').toBeDefined()
  const messages: ModelMessage[] = [
    ...asked.messages,
    { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request!.approvalId, approved }] },
  ]
  return generateText({ model, messages, tools, stopWhen: stepCountIs(2) })
}

/** Every part of every step of a call: a tool's call, approval request, result or error, and the reply. */
function partsOf(result: Awaited<ReturnType<typeof generateText>>) {
  return result.steps.flatMap((step) => step.content)
}

/** What the tool returned in a call, if it ran. */
function toolOutput(result: Awaited<ReturnType<typeof generateText>>): unknown {
  return result.steps.flatMap((step) => step.toolResults)[0]?.output
}

/** What an approved call's run returned: the AI SDK runs it before the first step, and answers it in a tool message. */
function runOutput(result: Awaited<ReturnType<typeof generateText>>) {
  for (const message of result.response.messages)
    if (message.role === 'tool') for (const part of message.content) if (part.type === 'tool-result') return part.output
  return undefined
}

/** The forget tool's result in an approved call's run (`runOutput`'s JSON). */
function approvedResult(result: Awaited<ReturnType<typeof generateText>>): ForgetResult {
  const output = runOutput(result)
  expect(output?.type).toBe('json')
  return (output as { value: unknown }).value as ForgetResult
}

/** What the model was told the tool returned, in the last request the fake LLM received. */
function toolResultSent(): string {
  const toolMessage = llm.requests.at(-1)!.messages.find((m) => m.role === 'tool')
  return toolMessage ? messageText(toolMessage) : ''
}

describe('forgetTool, the forget tool for the AI SDK', () => {
  it('once approved, removes the matching statement from the stored messages and from contexts, and keeps the rest', async () => {
    const model = await setUp()
    const tools = { forget: forgetTool(memory) }
    const before = await storedContents()
    const asked = await ask(model, 'Please forget my old address [forget: my old address on Oak Street]', tools)
    const call = asked.result.toolCalls[0]
    expect(call.input).toEqual({ statement: 'my old address on Oak Street' })
    // Nothing is removed while the approval is pending; what an approval UI shows is the statement, not the message.
    expect(await storedContents()).toEqual(before)
    const shown = await findStatementsToForget(memory, call.input as { statement: string })
    expect(shown.map((s) => [s.date, s.role, s.text])).toEqual([
      ['2026-03-02', 'user', 'We moved to 12 Oak Street in Leeds last spring.'],
    ])

    const reply = await answerApproval(model, asked, tools, true)
    const result = approvedResult(reply)
    expect(result).toEqual({
      outcome: 'forgotten',
      forgotten: [{ date: '2026-03-02', role: 'user', text: 'We moved to 12 Oak Street in Leeds last spring.' }],
    })
    expect(JSON.parse(toolResultSent())).toEqual(result)
    const after = await storedContents()
    expect(after).toEqual(['The garden has an old apple tree.', ...before.slice(1)])
    await memory.indexed()
    const context = await memory.buildContext('Where do I live, what is my address on Oak Street?', { budget: 8000 })
    expect(context.text).not.toContain('Oak Street')
    expect(context.text).toContain('apple tree')
  })

  it("once approved, also removes the assistant's reply that repeated the statement, shown as its repeat", async () => {
    const model = await setUp(REPEATED_HISTORY)
    const tools = { forget: forgetTool(memory) }
    const before = await storedContents()
    const asked = await ask(model, 'Please forget my knee [forget: my knee physiotherapy]', tools)
    const shown = await findStatementsToForget(memory, asked.result.toolCalls[0].input as { statement: string })
    const statement = 'I have been seeing a physiotherapist for my left knee since January.'
    const repeat = 'Sticking with the physiotherapist for your left knee is wise, since knees recover slowly.'
    expect(shown.map((s) => [s.role, s.text, s.repeatOf])).toEqual([
      ['user', statement, undefined],
      ['assistant', repeat, statement],
    ])
    const reply = await answerApproval(model, asked, tools, true)
    expect(approvedResult(reply).forgotten.map((s) => s.text)).toEqual([statement, repeat])
    expect(await storedContents()).toEqual([
      'We are repainting the hallway in sage green.',
      'Sage green is a calm colour for a hallway.',
      ...before.slice(2),
    ])
    await memory.indexed()
    const context = await memory.buildContext('What is wrong with my knee, who am I seeing for it?', { budget: 8000 })
    expect(context.text).not.toContain('physiotherapist')
    expect(context.text).toContain('hallway')
  })

  it('denied, removes nothing, and the model is told so', async () => {
    const model = await setUp()
    const tools = { forget: forgetTool(memory) }
    const before = await storedContents()
    const asked = await ask(model, 'Forget where I work [forget: I work as a librarian at the university]', tools)
    const reply = await answerApproval(model, asked, tools, false)
    expect(runOutput(reply)).toEqual({ type: 'execution-denied' })
    expect(toolResultSent()).not.toContain('librarian')
    expect(await storedContents()).toEqual(before)
  })

  it('called with a topic that matches nothing, asks no approval, removes nothing and says nothing matched', async () => {
    const model = await setUp()
    const tools = { forget: forgetTool(memory) }
    const before = await storedContents()
    const asked = await ask(model, 'Forget my tax details [forget: my tax return from 2019]', tools)
    expect(partsOf(asked.result).some((part) => part.type === 'tool-approval-request')).toBe(false)
    expect(toolOutput(asked.result)).toEqual({ outcome: 'nothing-matched', forgotten: [] })
    expect(JSON.parse(toolResultSent())).toEqual({ outcome: 'nothing-matched', forgotten: [] })
    expect(await storedContents()).toEqual(before)
  })

  it('called with a whole paragraph, removes only the statement it asks to forget', async () => {
    const model = await setUp()
    const tools = { forget: forgetTool(memory) }
    const before = await storedContents()
    const paragraph =
      'Busy week here. The heating broke again and the landlord is slow. Please forget that I work as a librarian ' +
      'at the university, I would rather you did not keep that. The cat has learnt to open the kitchen door.'
    const asked = await ask(model, `[forget: ${paragraph}]`, tools)
    const reply = await answerApproval(model, asked, tools, true)
    expect(approvedResult(reply).forgotten.map((s) => s.text)).toEqual(['I work as a librarian at the university.'])
    expect(await storedContents()).toEqual([
      ...before.slice(0, 2),
      'On Saturdays I swim forty lengths before breakfast.',
      ...before.slice(3),
    ])
  })

  it('rejects a call without a statement with INVALID_INPUT, which the model gets as the tool error, removing nothing', async () => {
    const model = await setUp()
    const tools = { forget: forgetTool(memory) }
    const before = await storedContents()
    const asked = await ask(model, 'Forget it [forget:    ]', tools)
    const error = partsOf(asked.result).find((part) => part.type === 'tool-error')
    expect(error?.error).toMatchObject({ name: 'SiftError', code: 'INVALID_INPUT' })
    expect(String((error?.error as Error | undefined)?.message)).toContain('needs a statement')
    expect(toolResultSent()).toContain('needs a statement')
    expect(await storedContents()).toEqual(before)
    expect(() => forgetTool(memory, { needsApproval: false })).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    )
  })

  it("with confirm, removes what the app's confirm returns of what it was shown, and nothing when it declines", async () => {
    const model = await setUp()
    const shown: string[][] = []
    let answer: 'first' | false = 'first'
    const forget = forgetTool(memory, {
      confirm: (statements) => {
        shown.push(statements.map((s) => s.text))
        return answer === 'first' ? statements.slice(0, 1) : false
      },
    })
    const before = await storedContents()
    answer = false
    const declined = await ask(model, '[forget: I cannot eat peanuts]', { forget })
    expect(toolOutput(declined.result)).toEqual({ outcome: 'declined', forgotten: [] })
    expect(await storedContents()).toEqual(before)
    answer = 'first'
    const done = await ask(model, '[forget: I cannot eat peanuts]', { forget })
    expect((toolOutput(done.result) as ForgetResult).forgotten.map((s) => s.text)).toEqual([
      'I cannot eat peanuts, so I check the labels on cereal bars.',
    ])
    expect(shown[0]).toEqual(['I cannot eat peanuts, so I check the labels on cereal bars.'])
    expect(await storedContents()).toEqual(before.slice(0, -1))
  })
})

/** A fresh memory as `setUp` makes it, the fake LLM wrapped in the middleware, and the forget tool. */
async function middlewareSetUp() {
  const base = await setUp()
  const reports: StoreReport[] = []
  const model = wrapLanguageModel({
    model: base,
    middleware: siftMemory(memory, { onStore: (report) => reports.push(report) }),
  })
  return { model, reports, tools: { forget: forgetTool(memory) } }
}

describe('forgetTool behind the siftMemory middleware', () => {
  /** The exchange of a user who asks to forget a fact and restates it, with news of their own around the request. */
  const REQUEST =
    'Thanks for the tips. Please forget that we moved to 12 Oak Street, I would rather not keep my address ' +
    '[forget: my address on Oak Street]. The cat has learnt to open the kitchen door.'

  for (const mode of ['generate', 'stream'] as const)
    it(`(${mode}) stores the acknowledged exchange without the sentences that restate what was forgotten`, async () => {
      const { model, reports, tools } = await middlewareSetUp()
      const asked = await ask(model, REQUEST, tools)
      const request = partsOf(asked.result).find((part) => part.type === 'tool-approval-request')
      const messages: ModelMessage[] = [
        ...asked.messages,
        {
          role: 'tool',
          content: [{ type: 'tool-approval-response', approvalId: request!.approvalId, approved: true }],
        },
      ]
      const run =
        mode === 'generate'
          ? await generateText({ model, messages, tools, stopWhen: stepCountIs(2) })
          : streamText({ model, messages, tools, stopWhen: stepCountIs(2) })
      const text = await run.text
      // The model's reply said what was forgotten (the fake LLM answers with the tool's result).
      expect(text).toContain('Oak Street')
      await new Promise((resolve) => setTimeout(resolve, 0))
      const stored = reports.at(-1)!
      expect(stored.error).toBeUndefined()
      // The exchange is stored, both turns: the user's news survives, the restated address does not.
      const [user, reply] = (await memory.messages({ ids: stored.ids })).messages
      expect(user.role).toBe('user')
      expect(user.content).toContain('Thanks for the tips.')
      expect(user.content).toContain('The cat has learnt to open the kitchen door.')
      expect(user.content).not.toContain('Oak Street')
      expect(reply?.content ?? '').not.toContain('Oak Street')
      expect(stored.restatementsForgotten).toBeGreaterThanOrEqual(2)
      for (const content of await storedContents()) expect(content).not.toContain('Oak Street')
      await memory.indexed()
      const context = await memory.buildContext('Where do I live, what is my address on Oak Street?', { budget: 8000 })
      expect(context.text).not.toContain('Oak Street')
    })

  it('stores the whole exchange when the forget was denied or matched nothing', async () => {
    const { model, reports, tools } = await middlewareSetUp()
    const denied = 'Forget where I work, the librarian job [forget: I work as a librarian at the university].'
    const reply = await answerApproval(model, await ask(model, denied, tools), tools, false)
    expect(runOutput(reply)).toEqual({ type: 'execution-denied' })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect((await memory.messages({ ids: reports.at(-1)!.ids })).messages[0].content).toBe(denied)
    expect(reports.at(-1)!.restatementsForgotten).toBe(0)
    const nothing = 'Forget my tax details from 2019, the refund went through [forget: my tax return from 2019].'
    await ask(model, nothing, tools)
    await new Promise((resolve) => setTimeout(resolve, 0))
    const [user] = (await memory.messages({ ids: reports.at(-1)!.ids })).messages
    expect(user.content).toBe(nothing)
    expect(reports.at(-1)!.restatementsForgotten).toBe(0)
  })
})

describe('forgetStatements, the forget tool for any SDK', () => {
  it('runs FORGET_TOOL only with a confirm, and refuses a confirm that returns a statement it was not shown', async () => {
    await setUp()
    expect(FORGET_TOOL.parameters.required).toEqual(['statement'])
    const input = { statement: 'my sister Ines the nurse' }
    const before = await storedContents()
    await expect(forgetStatements(memory, input, {} as never)).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    const forged = { messageId: 'not-stored', start: 0, end: 5, date: '', role: 'user', text: 'x' }
    await expect(forgetStatements(memory, input, { confirm: () => [forged] })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    })
    expect(await storedContents()).toEqual(before)
    const result = await forgetStatements(memory, input, { confirm: (statements) => statements })
    expect(result.forgotten.map((s) => s.text)).toEqual(['My sister Ines is a paediatric nurse in Porto.'])
    expect(await storedContents()).toEqual(before.filter((content) => !content.includes('Ines')))
  })
})
