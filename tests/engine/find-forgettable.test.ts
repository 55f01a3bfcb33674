import { fileURLToPath } from 'node:url'
import { IDBFactory } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import { createMemory, SiftError, type Memory, type MessageInput, type Strategy } from '../../src/node'

const DAY = 86_400_000
const PLANTED = "By the way, I'm allergic to peanuts, so keep them out of any recipe."
const ECHO = 'Understood: no peanuts in your recipes from now on.'

const topics = [
  'My sister Alma moved to Lisbon last spring. She teaches violin at a music school there.',
  'The boiler in the basement makes a knocking noise every morning. A plumber is coming on Thursday.',
  'I am training for a half marathon in October. My long run this week was eighteen kilometres.',
  'Our cat Pixel refuses to eat the new salmon food. We went back to the chicken one.',
  'Can you suggest a dinner recipe with lentils? Something quick for a weeknight.',
  'I started learning Japanese with flashcards. Kanji for numbers are the easiest so far.',
  'The tomato plants on the balcony finally have fruit. The basil died in the heatwave.',
  'My flight to Montreal leaves at seven in the morning. I still need to renew my passport.',
]

/** A small history with a preference planted in the middle, and the assistant's reply that repeats it. */
function history(): MessageInput[] {
  const turns: MessageInput[] = topics.flatMap((content, i) => [
    {
      role: 'user',
      content,
      id: `u${i}`,
      conversationId: i % 2 ? 'odd' : 'even',
      timestamp: 1_700_000_000_000 + i * DAY,
    },
    {
      role: 'assistant',
      content: `Thanks for telling me. I will keep that in mind (${i}).`,
      id: `a${i}`,
      conversationId: i % 2 ? 'odd' : 'even',
      timestamp: 1_700_000_000_000 + i * DAY + 1000,
    },
  ])
  turns.splice(
    6,
    0,
    { role: 'user', content: PLANTED, id: 'planted', conversationId: 'even', timestamp: 1_700_000_000_000 + 2.5 * DAY },
    {
      role: 'assistant',
      content: ECHO,
      id: 'echo',
      conversationId: 'even',
      timestamp: 1_700_000_000_000 + 2.5 * DAY + 1000,
    },
  )
  return turns
}

async function codeOf(call: () => Promise<unknown>): Promise<string> {
  const error = await call().then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(SiftError)
  return (error as SiftError).code
}

/** No context of any strategy, at any budget, holds the word. */
async function expectNoContextHolds(memory: Memory, word: RegExp): Promise<void> {
  for (const strategy of ['hybrid', 'lexical', 'dense', 'head', 'tail', 'full'] as Strategy[]) {
    for (const budget of [200, 2000, 100_000]) {
      for (const request of ['What am I allergic to?', 'Suggest a dinner recipe.', 'peanuts']) {
        const ctx = await memory.buildContext(request, { strategy, budget })
        expect(ctx.text, `${strategy} ${budget} ${request}`).not.toMatch(word)
      }
    }
  }
}

describe('findForgettable', () => {
  it('ranks the planted preference first, says why, and once its matches are forgotten no context or search returns it', async () => {
    const indexedDB = new IDBFactory()
    const memory = await createMemory({ name: 'forgettable', indexedDB })
    await memory.add(history())
    await memory.indexed()
    const found = await memory.findForgettable("Please forget that I'm allergic to peanuts.")
    // Only what clears the cut-off: the message that says it, and the reply that repeats it; the unrelated turns
    // ranked after them by meaning alone score below it.
    expect(found.map((m) => m.messageId)).toEqual(['planted', 'echo'])
    expect(found[0]).toMatchObject({ messageId: 'planted', conversationId: 'even', role: 'user', content: PLANTED })
    expect(found[0].score).toBe(1)
    expect(found[0].why).toMatch(/^shares 'allergic', 'peanuts'; dense rank 1$/)
    expect(found[0].sentences[0]).toEqual({
      text: PLANTED,
      start: 0,
      end: PLANTED.length,
      score: expect.any(Number),
      lexicalRank: 1,
      denseRank: 1,
    })
    const everything = await memory.findForgettable("Please forget that I'm allergic to peanuts.", { minScore: 0 })
    expect(everything).toHaveLength(10)
    expect(everything.slice(0, 2)).toEqual(found)
    expect(everything.every((m, i) => i === 0 || everything[i - 1].score >= m.score)).toBe(true)
    expect(everything.slice(2).every((m) => m.score < 0.4 && m.why.startsWith('shares no word'))).toBe(true)
    // Worded otherwise, with no word in common: the dense ranking alone still finds it, close enough in meaning.
    const paraphrased = await memory.findForgettable('Can you delete what I said about my nut allergy?', { limit: 3 })
    expect(paraphrased[0].messageId).toBe('planted')
    expect(paraphrased[0].score).toBeGreaterThanOrEqual(0.4)
    expect(paraphrased[0].why).toMatch(/^shares no word with the request; dense rank \d+$/)
    const oneConversation = await memory.findForgettable('forget that I am allergic to peanuts', {
      conversationId: 'odd',
      limit: 20,
    })
    expect(oneConversation.every((m) => m.conversationId === 'odd')).toBe(true)

    // The user confirms the matches that name peanuts.
    const confirmed = found.filter((m) => m.why.includes("'peanuts'")).map((m) => m.messageId)
    expect(confirmed.sort()).toEqual(['echo', 'planted'])
    expect(await memory.forget({ ids: confirmed })).toBe(2)
    await expectNoContextHolds(memory, /peanut/i)
    const again = await memory.findForgettable("Please forget that I'm allergic to peanuts.", { limit: 100 })
    expect(again.some((m) => /peanut/i.test(m.content) || confirmed.includes(m.messageId))).toBe(false)
    await memory.close()
    const reopened = await createMemory({ name: 'forgettable', indexedDB })
    await expectNoContextHolds(reopened, /peanut/i)
    await reopened.close()
  })

  it('finds the request inside a longer message: the news and questions around it do not outrank the statement', async () => {
    const memory = await createMemory({ name: 'forgettable-inside', indexedDB: new IDBFactory() })
    await memory.add(history())
    await memory.indexed()
    for (const message of [
      "My long run this week went well. Please forget that I'm allergic to peanuts — it was a mix-up. Can you suggest a quick dinner recipe with lentils?",
      'The plumber fixed the boiler on Thursday. I am no longer allergic to peanuts, so that is out of date. Any tips for my flight to Montreal?',
    ]) {
      const found = await memory.findForgettable(message, { limit: 3 })
      expect(found[0].messageId, message).toBe('planted')
      expect(found[0].sentences[0].text).toBe(PLANTED)
    }
    await memory.close()
  })

  it('says which sentences asked to forget, and gives no request for a message that asks nothing of the memory', async () => {
    const memory = await createMemory({ name: 'forgettable-request', indexedDB: new IDBFactory() })
    await memory.add(history())
    await memory.indexed()
    const message = "My long run went well. Please forget that I'm allergic to peanuts. Any lentil recipes?"
    expect((await memory.findForgettable(message))[0].messageId).toBe('planted')
    const asked = await memory.findForgetRequest(message)
    expect(asked?.sentences).toEqual([{ text: "Please forget that I'm allergic to peanuts.", start: 23, end: 66 }])
    expect(asked?.topic).toBe("I'm allergic to peanuts")
    // Talk of forgetting in another sense, and a text editing request: matches, as before, but no request.
    for (const control of [
      'I forgot my peanut butter sandwich at home again.',
      'Can you delete the first paragraph of my peanut recipe and make it shorter?',
    ]) {
      expect((await memory.findForgettable(control)).length, control).toBeGreaterThan(0)
      expect(await memory.findForgetRequest(control), control).toBeUndefined()
    }
    // A forget tool's argument names only the topic: the same matches, no request.
    expect((await memory.findForgettable('my peanut allergy'))[0].messageId).toBe('planted')
    expect(await memory.findForgetRequest('my peanut allergy')).toBeUndefined()
    // Text alone is read: bad input is refused as for findForgettable.
    await expect(memory.findForgetRequest(42 as unknown as string)).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    await memory.close()
  })

  it('in a language the model was not trained on, ranks the sentence that shares the request words first in its message', async () => {
    // The shipped model is English: its similarities for Spanish are close to noise, so, as for a context
    // (`denseTrust`), they only order the sentences behind the word matches.
    const memory = await createMemory({ name: 'forgettable-es', indexedDB: new IDBFactory() })
    const spanish = [
      '¡Hola! Soy Lucía, enfermera pediátrica en el Hospital Virgen del Rocío de Sevilla. Vivo en Triana con mi pareja, Andrés, y nuestra gata, Canela. Soy vegetariana desde hace diez años. Tengo alergia a las nueces. ¿Me sugieres cenas rápidas para después del turno?',
      'Mi hermano Javier se casa en Cádiz en septiembre y yo soy la madrina. Tengo que organizar una despedida para quince personas.',
      'Estoy ahorrando para comprar un piso en Triana. Tengo unos veinte mil euros ahorrados.',
      'Empecé clases de guitarra los jueves por la tarde. Mi profesor se llama Manolo y toca en un tablao.',
    ]
    await memory.add(spanish.map((content, i) => ({ role: 'user', content, id: `es${i}`, timestamp: i * DAY })))
    await memory.indexed()
    const [first] = await memory.findForgettable(
      'Buenos días. Ayer fui al alergólogo y me hicieron pruebas. Resulta que no tengo alergia a las nueces, así que olvida eso, por favor. Por cierto, ¿sabes alguna receta con almendras?',
    )
    expect(first.messageId).toBe('es0')
    expect(first.sentences[0].text).toBe('Tengo alergia a las nueces.')
    await memory.close()
  })

  it('ranks by words alone when the model cannot embed the request, and rejects instead with strictRanking', async () => {
    const localModelPath = fileURLToPath(new URL('../fixtures/', import.meta.url))
    const memory = await createMemory({ name: 'forgettable-lexical', indexedDB: new IDBFactory(), localModelPath })
    await memory.add(history())
    const found = await memory.findForgettable('Forget that I am allergic to peanuts!')
    expect(found.map((m) => m.messageId)).toEqual(['planted', 'echo'])
    expect(found[0].why).toBe("shares 'allergic', 'peanuts'")
    expect(found[0].sentences[0].denseRank).toBeUndefined()
    await memory.close()
    const strict = await createMemory({
      name: 'forgettable-strict',
      indexedDB: new IDBFactory(),
      localModelPath,
      strictRanking: true,
    })
    await strict.add(history())
    expect(await codeOf(() => strict.findForgettable('forget that I am allergic to peanuts'))).toBe('MODEL_UNAVAILABLE')
    await strict.close()
  })

  it('refuses bad arguments with INVALID_INPUT, and finds nothing in an empty request', async () => {
    const memory = await createMemory({ name: 'forgettable-bad', indexedDB: new IDBFactory() })
    await memory.add(history())
    for (const [text, options] of [
      [5, {}],
      ['x', { limit: 0 }],
      ['x', { limit: 101 }],
      ['x', { limit: 1.5 }],
      ['x', { conversationId: 3 }],
      ['x', { minScore: -0.1 }],
      ['x', { minScore: 1.5 }],
      ['x', { minScore: '0.5' }],
      ['x', []],
    ] as const) {
      expect(
        await codeOf(() => memory.findForgettable(text as never, options as never)),
        JSON.stringify([text, options]),
      ).toBe('INVALID_INPUT')
    }
    expect(await memory.findForgettable('   ')).toEqual([])
    await memory.close()
  })
})
