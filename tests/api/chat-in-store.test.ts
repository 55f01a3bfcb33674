// useStoredChat's check (src/react/chat-in-store.ts) against a real memory: the chat messages a forget reached leave
// the thread or show the stored text; those that name no stored message stay as they are.
import { IDBFactory } from 'fake-indexeddb'
import { afterEach, describe, expect, it } from 'vitest'
import { chatEdits, withChatEdits } from '../../src/react/chat-in-store'
import { toChatMessages } from '../../src/react/chat-messages'
import { createMemory, type Memory } from '../../src/node'

let memory: Memory | undefined
afterEach(async () => {
  await memory?.close()
})

const text = (message: { parts: readonly { text?: string }[] }) => message.parts.map((p) => p.text).join('')

describe("useStoredChat's check of a chat against the memory", () => {
  it('leaves out forgotten messages, shows what is left of one with forgotten sentences, keeps the rest', async () => {
    memory = await createMemory({ name: 'chat-in-store', indexedDB: new IDBFactory(), requireModelFiles: false })
    await memory.add([
      { id: 'u1', role: 'user', content: 'My old address was 12 Elm Street. I moved last spring.' },
      { id: 'u1-reply', role: 'assistant', content: 'Noted.' },
      { id: 'u2', role: 'user', content: 'The cat is called Pixel.' },
      { id: 'u2-reply', role: 'assistant', content: 'A fine name.' },
    ])
    // As the hook reads them after a reload, then a reply the middleware marked after an unmarked user message.
    const read = toChatMessages((await memory.messages({ newestFirst: true })).messages)
    const chat = [
      ...read,
      { id: 'typed', role: 'user', parts: [{ type: 'text', text: 'I work at the bakery.' }] },
      {
        id: 'answer',
        role: 'assistant',
        parts: [{ type: 'text', text: 'Good to know.', providerMetadata: { sift: { id: 'b-reply', requestId: 'b' } } }],
      },
      { id: 'never-stored', role: 'user', parts: [{ type: 'text', text: 'Not stored by anyone.' }] },
    ]
    await memory.add([
      { id: 'b', role: 'user', content: 'I work at the bakery.' },
      { id: 'b-reply', role: 'assistant', content: 'Good to know.' },
    ])
    expect((await chatEdits(memory, chat)).size).toBe(0)

    const address = 'My old address was 12 Elm Street.'
    await memory.forget({ sentences: [{ messageId: 'u1', start: 0, end: address.length }] })
    await memory.forget({ ids: ['u2', 'b'] })
    const after = withChatEdits(chat, await chatEdits(memory, chat))
    expect(after.map((m) => [m.id, text(m)])).toEqual([
      ['u1', 'I moved last spring.'],
      ['u1-reply', 'Noted.'],
      ['u2-reply', 'A fine name.'],
      ['answer', 'Good to know.'],
      ['never-stored', 'Not stored by anyone.'],
    ])
    // Applied again, nothing changes: the same array.
    expect(withChatEdits(after, await chatEdits(memory, after))).toBe(after)
  })

  it('checks every turn of a thread whose long turns ask for more ids than one read takes', async () => {
    memory = await createMemory({ name: 'chat-in-store-long', indexedDB: new IDBFactory(), requireModelFiles: false })
    await memory.add([{ id: 'kept', role: 'user', content: 'Still here.' }])
    const mark = (id: string) => ({ sift: { id } })
    const chat = [
      // A pasted document of 600,000 characters, stored in parts that were all forgotten since.
      {
        id: 'long',
        role: 'user',
        parts: [{ type: 'text', text: 'x'.repeat(600_000), providerMetadata: mark('gone') }],
      },
      { id: 'short', role: 'user', parts: [{ type: 'text', text: 'Still here.', providerMetadata: mark('kept') }] },
    ]
    const after = withChatEdits(chat, await chatEdits(memory, chat))
    expect(after.map((m) => m.id)).toEqual(['short'])
  })
})
