import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemory, type Memory, type MessageInput } from '../../src/node'
import { loadWordNeighbours } from '../../worker/embed/word-neighbours'
import { nodeHost } from '../../worker/hosts/node/node-host'

const conversationId = 'studio'
const answer = 'I finally signed up for a pottery class at the community studio.'
const history: MessageInput[] = [
  answer,
  'The weather has been awful all week, rain every single day.',
  'We watched a documentary about octopuses last night.',
  'My sister keeps asking about the lessons I promised to give her on the guitar.',
  'Lessons are expensive around here, so I teach myself from videos.',
  'My neighbour finally fixed the fence between our gardens.',
  'I should call the dentist about that tooth.',
].map((content, i) => ({
  role: i % 2 === 0 ? 'Melanie' : 'Caroline',
  content,
  conversationId,
  timestamp: Date.UTC(2024, 0, 1 + i),
}))
// Worded unlike the answer: "enrol" and "ceramics" are words this history never uses; "lessons" is one it uses elsewhere.
const request = 'When did she enrol in ceramics lessons?'

describe('hybrid widens a request’s unused words with the word-neighbour table', () => {
  const modelsWithoutVectors = mkdtempSync(join(tmpdir(), 'sift-no-word-neighbours-'))
  let widened: Memory
  let plain: Memory
  beforeAll(async () => {
    // The same model files, but no word-neighbour table beside them: the memory must work as before the widening existed.
    cpSync(
      fileURLToPath(new URL('../../public/models/use-lite', import.meta.url)),
      join(modelsWithoutVectors, 'use-lite'),
      { recursive: true },
    )
    widened = await createMemory({ name: 'word-neighbours-widened' })
    plain = await createMemory({ name: 'word-neighbours-plain', localModelPath: modelsWithoutVectors })
    for (const memory of [widened, plain]) {
      await memory.add(history)
      await memory.indexed()
    }
  })
  afterAll(async () => {
    await widened?.close()
    await plain?.close()
    rmSync(modelsWithoutVectors, { recursive: true, force: true })
  })

  it('the answer, sharing no word with the request, is a lexical hit through a stand-in ("pottery" for "ceramics")', async () => {
    const ctx = await widened.buildContext(request, { conversationId, budget: 4000 })
    const item = ctx.items.find((i) => i.text === answer)
    expect(item?.reason).toBe('relevant')
    expect(item?.ranks?.lexical).toBeDefined()
    expect(item?.ranks?.dense).toBeDefined()
  })

  it('stats() says whether the table was read, and why not when it could not be', async () => {
    expect((await widened.stats()).wordNeighbours).toEqual({ state: 'ready' })
    expect((await plain.stats()).wordNeighbours).toEqual({
      state: 'unavailable',
      reason: expect.stringMatching(/^word-neighbours\/en-20k\.bin under .*sift-no-word-neighbours-.*: ENOENT/),
    })
  })

  it('without the word-neighbour table the context is built as before: the answer is found by meaning only', async () => {
    const ctx = await plain.buildContext(request, { conversationId, budget: 4000 })
    expect(ctx.stats.ranking).toBe('hybrid')
    const item = ctx.items.find((i) => i.text === answer)
    expect(item?.reason).toBe('relevant')
    expect(item?.ranks?.dense).toBeDefined()
    expect(item?.ranks?.lexical).toBeUndefined()
  })

  it('only hybrid widens: the lexical strategy ranks the words as they are, so the answer is not among its hits', async () => {
    const ctx = await widened.buildContext(request, { conversationId, strategy: 'lexical', budget: 4000 })
    expect(ctx.items.some((i) => i.ranks?.lexical !== undefined)).toBe(true)
    expect(ctx.items.find((i) => i.text === answer)?.ranks?.lexical).toBeUndefined()
  })
})

describe('loadWordNeighbours', () => {
  it('gives up on a file that never arrives, so hybrid requests are not held up', async () => {
    const never = { readModelFile: () => new Promise<ArrayBuffer>(() => undefined) }
    const load = loadWordNeighbours(never, '/models/', 20)
    expect(load.state()).toEqual({ state: 'loading' })
    await expect(load.table).resolves.toBeUndefined()
    expect(load.state()).toEqual({
      state: 'unavailable',
      reason: 'word-neighbours/en-20k.bin under /models/: not read within 20 ms',
    })
  })

  it('gives undefined for a file that is not a table, and the table for the shipped file', async () => {
    const notATable = loadWordNeighbours({ readModelFile: async () => new ArrayBuffer(64) }, '/models/')
    await expect(notATable.table).resolves.toBeUndefined()
    expect(notATable.state()).toEqual({
      state: 'unavailable',
      reason: 'word-neighbours/en-20k.bin under /models/: not a Sift word-neighbour file',
    })
    const host = nodeHost({}, new URL('../../', import.meta.url))
    const shipped = loadWordNeighbours(host, host.localModelPath)
    expect((await shipped.table)?.words.length).toBe(20_000)
    expect(shipped.state()).toEqual({ state: 'ready' })
  })
})
