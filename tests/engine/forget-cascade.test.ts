// Everything derived from a message is an entry of FORGET_CASCADE, and a forget leaves nothing of the message in any
// entry. Each entry has a probe here that reads its part of the database raw and its fields in memory: it finds the
// message before the forget (where the entry holds some of it) and nothing of it after. The database's object stores
// and meta rows, and the fields of the engine and of its parts, are each checked to be named by the list, so a
// structure added without a forget step (or without a probe here) fails this file.
import { serialize } from 'node:v8'
import { IDBFactory } from 'fake-indexeddb'
import { beforeAll, describe, expect, it } from 'vitest'
import type { EmbeddingCache } from '../../worker/embed/embedding-cache'
import { Engine } from '../../worker/engine/engine'
import { FORGET_CASCADE, HOLDS_NOTHING_OF_A_MESSAGE } from '../../worker/engine/forget-cascade'
import type { EngineHost } from '../../worker/hosts/engine-host'
import type { LexicalIndex } from '../../worker/index/lexical/lexical-index'
import type { SentenceCatalog } from '../../worker/index/sentence-catalog'
import { nodeHost } from '../../worker/hosts/node/node-host'
import { metaRowKind, STORED_FORGET, type MetaRowKind } from '../../worker/store/forget-write'
import { seededRandom } from '../../worker/util/seeded-random'
import { getAllRaw, openRaw, putRaw } from '../raw-database'

const SECRET = 'My zanzibar itinerary leaves from the quayside.'
const SECRET_SUMMARY = 'Summary: the zanzibar itinerary, leaving from the quayside.'
/** What only the forgotten message has: its words, its id and its conversation's id. */
const NEEDLES = ['zanzibar', 'quayside', 'secret-message', 'secret-conversation']
const kept = [
  'My sister Alma moved to Lisbon last spring.',
  'The boiler in the basement makes a knocking noise every morning.',
  'I am training for a half marathon in October.',
  'Our cat Pixel refuses to eat the new salmon food.',
].map((content, i) => ({ role: 'user', content, id: `kept-${i}`, conversationId: 'kept-conversation' }))
/** Enough sentences for the lexical snapshot to be saved at close, so that there is one to read. */
const filler = Array.from({ length: 520 }, (_, i) => ({
  role: 'assistant',
  content: `Noted item ${i} of the list.`,
  conversationId: 'kept-conversation',
}))

/** A vector per text, the same for the same text: no model time. */
function vectorOf(text: string): Float32Array {
  const random = seededRandom([...text].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7))
  const vector = Float32Array.from({ length: 64 }, () => random() * 2 - 1)
  const norm = Math.hypot(...vector)
  return vector.map((v) => v / norm)
}

/** The host's embedding cache, which remembers every text it served or was given until it is told to forget it. */
function recordingCache(): { cache: EmbeddingCache; held: Set<string> } {
  const held = new Set<string>()
  const cache: EmbeddingCache = {
    get: (text) => {
      held.add(text)
      return vectorOf(text)
    },
    set: (text) => void held.add(text),
    flush: async () => undefined,
    forget: async (texts) => texts.forEach((text) => held.delete(text)),
    clear: async () => held.clear(),
  }
  return { cache, held }
}

/** Whether structured-clone bytes hold `text` (one byte per character, or two). */
function holds(bytes: Buffer, text: string): boolean {
  return bytes.includes(Buffer.from(text, 'latin1')) || bytes.includes(Buffer.from(text, 'utf16le'))
}

/** Where `value` (as structured clone writes it) holds one of `needles`: `where: needle`. */
function found(where: string, value: unknown, needles = NEEDLES): string[] {
  const bytes = serialize(value)
  return needles.filter((needle) => holds(bytes, needle)).map((needle) => `${where}: ${needle}`)
}

/** A memory that holds the secret message everywhere a message goes: indexed, saved, cached, pinned and summarised. */
async function secretEverywhere() {
  const factory = new IDBFactory()
  const { cache, held } = recordingCache()
  const host: EngineHost = {
    ...nodeHost({ indexedDB: factory }, new URL('../../', import.meta.url)),
    openEmbeddingCache: async () => cache,
  }
  const name = 'cascade'
  const first = await Engine.open({ name }, host)
  await first.add([...kept, ...filler])
  await first.add({ role: 'user', content: SECRET, id: 'secret-message', conversationId: 'secret-conversation' })
  await first.indexed()
  // Close saves the lexical snapshot; the memory reopened restores its index from it.
  await first.close()
  const engine = await Engine.open({ name }, host)
  await engine.indexed()
  await engine.pins.pin('secret-message')
  await engine.pins.pin('kept-0')
  await engine.summaries.set('secret-conversation', SECRET_SUMMARY, { through: 'secret-message' })
  await engine.summaries.set('kept-conversation', 'Alma lives in Lisbon.', { through: 'kept-3' })
  await engine.summaries.get('kept-conversation')
  // Coarse lists need COARSE_MIN_ROWS vectors (tests/engine/coarse-lists.test.ts re-centres trained ones after a
  // forget): here a row is planted where they are saved, which the forget's write deletes whole.
  await putRaw(factory, name, 'coarseLists', [{ key: 'vectors', planted: SECRET }])
  const secretSids = indexesOf(engine).catalog.message('secret-message')!.sids
  return { factory, name, engine, held, secretSids }
}

type World = Awaited<ReturnType<typeof secretEverywhere>>

function rawTable(world: World, table: string): Promise<unknown[]> {
  return getAllRaw(world.factory, world.name, table)
}

async function metaRows(world: World, kind: MetaRowKind): Promise<unknown[]> {
  const rows = (await rawTable(world, 'meta')) as { key: string }[]
  return rows.filter((row) => metaRowKind(row.key) === kind)
}

/** A private field of the engine or of one of its parts. */
function field(owner: object, name: string): unknown {
  return (owner as Record<string, unknown>)[name]
}

/** The engine's indexes, private to it. */
function indexesOf(engine: Engine): { catalog: SentenceCatalog; lexical: LexicalIndex } {
  return { catalog: field(engine, 'catalog') as SentenceCatalog, lexical: field(engine, 'lexical') as LexicalIndex }
}

/** Each entry's probe: where it still holds something of the secret message. */
const PROBES: Record<string, { before: 'found' | 'nothing'; probe: (world: World) => Promise<string[]> }> = {
  messages: {
    before: 'found',
    probe: async (world) => {
      const { catalog } = indexesOf(world.engine)
      const inMemory = {
        message: catalog.message('secret-message'),
        sentences: world.secretSids.map((sid) => catalog.get(sid)),
        conversation: catalog.scope('secret-conversation').messages,
      }
      return [...found('messages', await rawTable(world, 'messages')), ...found('catalog', inMemory)]
    },
  },
  'lexical index': {
    before: 'found',
    probe: async ({ engine }) => {
      const { lexical } = indexesOf(engine)
      const hits = lexical.search('zanzibar quayside')
      return [...(hits.length > 0 ? ['lexical index: search'] : []), ...found('lexical index', lexical.serialize())]
    },
  },
  'vector blocks': {
    before: 'found',
    probe: async (world) => {
      const stored = [...(await rawTable(world, 'vectorBlocks')), ...(await rawTable(world, 'vectorResiduals'))]
      const sids = (stored as { sids: Float64Array }[]).flatMap((record) => [...record.sids])
      return world.secretSids.flatMap((sid) => [
        ...(sids.includes(sid) ? [`vector records: sid ${sid}`] : []),
        ...(world.engine.background.vectors?.has(sid) ? [`vector index: sid ${sid}`] : []),
      ])
    },
  },
  'lexical snapshot': {
    before: 'found',
    probe: async (world) => found('snapshot', await rawTable(world, 'lexicalSnapshots')),
  },
  'coarse lists': {
    before: 'found',
    probe: async (world) => found('coarse lists', await rawTable(world, 'coarseLists')),
  },
  'embedding cache': {
    before: 'found',
    probe: async ({ held }) => [...held].filter((text) => text.includes(SECRET)).map((text) => `cache: ${text}`),
  },
  'pins row': {
    before: 'found',
    probe: async (world) => [
      ...found('pins row', await metaRows(world, 'pins')),
      ...found('pins', await field(world.engine.pins, 'ids')),
    ],
  },
  'summary rows': {
    before: 'found',
    probe: async (world) => {
      const rows = (await field(world.engine.summaries, 'rows')) as Map<string, unknown> | undefined
      return [...found('summary rows', await metaRows(world, 'summary')), ...found('summaries', rows ?? [])]
    },
  },
  // Its conversation and place are what it keeps, on purpose: never the text or the message's id.
  'recent forgets': {
    before: 'nothing',
    probe: async ({ engine }) => found('recent forgets', field(engine.summaries, 'forgets'), NEEDLES.slice(0, 3)),
  },
  'forget revision': {
    before: 'nothing',
    probe: async (world) => found('revision', await metaRows(world, 'revision')),
  },
  'state row': { before: 'nothing', probe: async (world) => found('state', await metaRows(world, 'state')) },
  'key check': { before: 'nothing', probe: async (world) => found('key check', await metaRows(world, 'encryption')) },
  'repairs at open': {
    before: 'nothing',
    probe: async ({ engine }) => found('repairs', field(engine, 'repairedAtOpen')),
  },
}

describe('the forget cascade', () => {
  let world: World
  beforeAll(async () => {
    world = await secretEverywhere()
  })

  it('leaves nothing of a forgotten message in any entry of FORGET_CASCADE, each probed before and after', async () => {
    expect(Object.keys(PROBES).sort()).toEqual(FORGET_CASCADE.map((entry) => entry.name).sort())
    for (const { name } of FORGET_CASCADE) {
      const traces = await PROBES[name].probe(world)
      if (PROBES[name].before === 'found') expect(traces, name).not.toEqual([])
      else expect(traces, name).toEqual([])
    }
    expect(await world.engine.forget({ conversationId: 'secret-conversation' })).toBe(1)
    for (const { name } of FORGET_CASCADE) expect(await PROBES[name].probe(world), name).toEqual([])
    // The control: what was kept is still there.
    expect((await world.engine.pins.list()).map((pin) => pin.messageId)).toEqual(['kept-0'])
    expect(await world.engine.summaries.get('kept-conversation')).toMatchObject({ state: 'current' })
  })

  it('has a stored step for every object store and every kind of meta row, and each stored step is an entry’s', async () => {
    // Encrypted, for the key check: every kind of row a memory writes is there once it pinned, summarised and forgot.
    const factory = new IDBFactory()
    const host = nodeHost({ indexedDB: factory }, new URL('../../', import.meta.url))
    const engine = await Engine.open({ name: 'rows', passphrase: 'correct horse' }, host)
    await engine.add([...kept.slice(0, 2)])
    await engine.pins.pin('kept-0')
    await engine.summaries.set('kept-conversation', 'Alma lives in Lisbon.', { through: 'kept-1' })
    await engine.forget({ id: 'kept-1' })
    await engine.close()
    const db = await openRaw(factory, 'rows')
    const stores = [...db.objectStoreNames]
    db.close()
    const rows = (await getAllRaw(factory, 'rows', 'meta')) as { key: string }[]
    const kinds = new Set(rows.map((row) => metaRowKind(row.key)))
    expect([...kinds].sort()).toEqual(['encryption', 'pins', 'revision', 'state', 'summary'])
    const steps = STORED_FORGET as readonly { name: string; tables: readonly string[]; metaRows: readonly string[] }[]
    // `meta` is a step's row by row; every other store is one step's whole.
    for (const store of stores.filter((store) => store !== 'meta'))
      expect(
        steps.filter((step) => step.tables.includes(store)),
        store,
      ).toHaveLength(1)
    for (const kind of kinds)
      expect(
        steps.filter((step) => step.metaRows.includes(kind!)),
        kind,
      ).toHaveLength(1)
    for (const step of steps) for (const table of step.tables) expect(stores, step.name).toContain(table)
    for (const step of steps)
      expect(FORGET_CASCADE.filter((entry) => entry.stored === step.name).map((entry) => entry.name)).toEqual([
        step.name,
      ])
  })

  it('names every field of the engine and of its parts: as holding something of a message, or as holding nothing', () => {
    const named = [
      ...FORGET_CASCADE.flatMap((entry) => entry.inMemory?.heldBy ?? []),
      ...Object.keys(HOLDS_NOTHING_OF_A_MESSAGE),
    ]
    expect(new Set(named).size, 'each field named once').toBe(named.length)
    const fields = Object.keys(world.engine).flatMap((key) => {
      // A part some of whose fields are named is read field by field.
      if (!named.some((path) => path.startsWith(`${key}.`))) return [key]
      return Object.keys(field(world.engine, key) as object).map((inner) => `${key}.${inner}`)
    })
    expect(
      fields.filter((path) => !named.includes(path)),
      'fields no entry names',
    ).toEqual([])
    expect(
      named.filter((path) => !fields.includes(path)),
      'names of no field',
    ).toEqual([])
  })

  it('says, for every entry, what a forget does to it, or why it keeps it', () => {
    const writes = new Set<string>(STORED_FORGET.flatMap((step) => ('write' in step ? [step.name] : [])))
    for (const entry of FORGET_CASCADE) {
      const stepped = entry.follow !== undefined || (entry.stored !== undefined && writes.has(entry.stored))
      expect(stepped || entry.kept !== undefined, entry.name).toBe(true)
    }
  })
})
