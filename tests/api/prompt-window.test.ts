// How the AI SDK middleware cuts a prompt (src/ai/prompt-window.ts): pure, over prompts in the AI SDK's model format.
import { describe, expect, it } from 'vitest'
import type { ModelPrompt } from '../../src/ai/model-types'
import { promptWithContext, readPromptWindow } from '../../src/ai/prompt-window'

const text = (t: string) => [{ type: 'text' as const, text: t }]
const user = (t: string) => ({ role: 'user' as const, content: text(t) })
const assistant = (t: string) => ({ role: 'assistant' as const, content: text(t) })
const toolCall = (id: string) => ({
  role: 'assistant' as const,
  content: [{ type: 'tool-call' as const, toolCallId: id, toolName: 'recall', input: { query: 'q' } }],
})
const toolResult = (id: string) => ({
  role: 'tool' as const,
  content: [
    { type: 'tool-result' as const, toolCallId: id, toolName: 'recall', output: { type: 'json' as const, value: {} } },
  ],
})

describe('readPromptWindow', () => {
  it('keeps the system prefix, the last turns and the current exchange, and says how many turns it kept', () => {
    const prompt: ModelPrompt = [
      { role: 'system', content: 'Be kind.' },
      user('u1'),
      assistant('a1'),
      user('u2'),
      assistant('a2'),
      user('now'),
    ]
    const window = readPromptWindow(prompt, 3)!
    expect(window.system).toEqual([prompt[0]])
    expect(window.recent).toEqual(prompt.slice(2, 5))
    expect(window).toMatchObject({ recentTurns: 3, dropped: 1, request: 'now', replySoFar: '' })
    expect(promptWithContext(window, ['Pinned:\nuser: p', 'Excerpts:\nuser: u1'])).toEqual([
      prompt[0],
      { role: 'system', content: 'Pinned:\nuser: p' },
      { role: 'system', content: 'Excerpts:\nuser: u1' },
      ...prompt.slice(2),
    ])
    expect(promptWithContext(window, [])).toEqual([prompt[0], ...prompt.slice(2)])
    expect(readPromptWindow(prompt, 0)!.recent).toEqual([])
    expect(readPromptWindow(prompt, 10)).toMatchObject({ recentTurns: 4, dropped: 0 })
  })

  it("counts a reply with its tool calls and results as one turn, and keeps this call's earlier steps", () => {
    const prompt: ModelPrompt = [
      user('u1'),
      toolCall('c1'),
      toolResult('c1'),
      assistant('a1'),
      user('now'),
      { role: 'assistant', content: [...text('Let me look.'), ...toolCall('c2').content] },
      toolResult('c2'),
    ]
    const window = readPromptWindow(prompt, 1)!
    expect(window.recent).toEqual(prompt.slice(1, 4))
    expect(window).toMatchObject({ recentTurns: 1, dropped: 1, request: 'now', replySoFar: 'Let me look.' })
    expect(window.current).toEqual(prompt.slice(4))
  })

  it('finds nothing to do in a prompt without a user message', () => {
    expect(readPromptWindow([{ role: 'system', content: 'x' }], 6)).toBeUndefined()
  })
})
