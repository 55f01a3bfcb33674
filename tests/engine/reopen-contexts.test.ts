// A reopened memory answers exactly what it answered before it closed (issue 32's open work must keep this): the
// first contexts after the open, and those once everything is loaded, in every ranking.
import { IDBFactory } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import type { Context, MessageInput } from '../../src/types'
import { Engine } from '../../worker/engine/engine'
import { nodeHost } from '../../worker/hosts/node/node-host'

const host = (factory: IDBFactory) => nodeHost({ indexedDB: factory }, new URL('../../', import.meta.url))

/** Two conversations of everyday notes, a few sentences each, with replies. */
const notes = [
  'We booked the cabin by the lake for the last week of August. It sleeps six, so the cousins can come too.',
  'My knee still hurts after the hike on Sunday. The physiotherapist said to rest it for ten days.',
  'The new espresso machine leaks from the steam wand. I kept the receipt in the kitchen drawer.',
  'Priya starts her job at the observatory in March. She will be working night shifts on the telescope.',
  'I repainted the hallway a pale green. The old colour showed every fingerprint.',
  'The landlord wants the lease renewed before the end of the month. Rent goes up by four percent.',
  'Our book club is reading a novel about a lighthouse keeper. Nobody has finished it yet.',
  'I lost my reading glasses on the train to Utrecht. The lost property office has not called back.',
  'The garden centre had no more lavender, so I planted rosemary along the fence instead.',
  'Dad turns seventy in November. We are thinking about a dinner at the harbour restaurant.',
  'My laptop battery lasts barely an hour now. A replacement costs less than I expected.',
  'The choir concert moved from the church to the town hall because of the scaffolding.',
]

const history: MessageInput[] = notes.flatMap((content, i) => [
  { role: 'user', content, conversationId: i % 3 === 0 ? 'family' : 'daily', id: `n${i}` },
  {
    role: 'assistant',
    content: `Noted, I will keep that in mind (${i}).`,
    conversationId: i % 3 === 0 ? 'family' : 'daily',
    id: `r${i}`,
  },
])

/** Worded unlike the notes they are about, and one about nothing stored. */
const requests = [
  'Where are we staying in the summer holidays?',
  'What did the doctor tell me about my leg?',
  'Any plans for my father’s birthday?',
  'How much more will the flat cost?',
  'Which programming language should I learn?',
]

const strategies = ['hybrid', 'dense', 'lexical'] as const

/** A context as compared: its text and which sentences it holds, in order. */
const shape = ({ text, items }: Context) => ({ text, items: items.map((item) => `${item.messageId}:${item.start}`) })

async function contextsOf(engine: Engine) {
  const shapes = []
  for (const request of requests)
    for (const strategy of strategies) shapes.push(shape(await engine.buildContext(request, { strategy, budget: 400 })))
  return shapes
}

/** A memory that stored and embedded `history`, its contexts with the model loaded, then closed. */
async function written(name: string) {
  const factory = new IDBFactory()
  const engine = await Engine.open({ name }, host(factory))
  await engine.add(history)
  await engine.indexed()
  await engine.ready()
  const contexts = await contextsOf(engine)
  await engine.close()
  return { factory, contexts }
}

describe('a reopened memory', () => {
  it('answers the same contexts as before it closed, first and once everything is loaded', async () => {
    const { factory, contexts } = await written('reopen')
    const reopened = await Engine.open({ name: 'reopen' }, host(factory))
    await reopened.ready()
    expect(await contextsOf(reopened)).toEqual(contexts)
    await reopened.indexed()
    expect(await contextsOf(reopened)).toEqual(contexts)
    await reopened.close()
  })
})
