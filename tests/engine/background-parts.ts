// The parts an engine opens (a real store on fake-indexeddb, the sentence catalog, the lexical index, the embedder),
// for the background work's state machines to run on without an engine around them. Texts get vectors from an
// embedding cache (the host's own interface) where `known` says so; any other text goes to a model whose files do
// not exist, so embedding it fails as a missing model really fails.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { IDBFactory } from 'fake-indexeddb'
import type { EmbeddingCache } from '../../worker/embed/embedding-cache'
import { openParts, type OpenedParts } from '../../worker/engine/open-parts'
import type { WriteQueue } from '../../worker/engine/write-queue'
import type { EngineHost } from '../../worker/hosts/engine-host'
import { nodeHost } from '../../worker/hosts/node/node-host'
import { toValidMessages } from '../../worker/input/message-input'
import { seededRandom } from '../../worker/util/seeded-random'

export const SYNTHETIC_DIM = 16

/** A unit vector derived from `input` (a text as the cache sees it, prefix included): the same for the same input. */
export function syntheticVector(input: string): Float32Array {
  const random = seededRandom([...input].reduce((hash, c) => Math.imul(hash ^ c.charCodeAt(0), 16777619), 2166136261))
  const vector = Float32Array.from({ length: SYNTHETIC_DIM }, () => random() * 2 - 1)
  const norm = Math.hypot(...vector)
  return vector.map((v) => v / norm)
}

/** A host on `factory` whose embedding cache holds a vector for every text `known` accepts, and a missing model. */
export function syntheticHost(factory: IDBFactory, known: (input: string) => boolean): EngineHost {
  const cache: EmbeddingCache = {
    get: (input) => (known(input) ? syntheticVector(input) : undefined),
    set: () => undefined,
    flush: async () => undefined,
    forget: async () => undefined,
    clear: async () => undefined,
  }
  const host = nodeHost({ indexedDB: factory as unknown as globalThis.IDBFactory }, new URL('../../', import.meta.url))
  return { ...host, openEmbeddingCache: async () => cache }
}

const noModelFolder = mkdtempSync(join(tmpdir(), 'sift-background-no-model-'))

/** Removes the empty model folder the parts point at: call it after all. */
export function removeNoModelFolder(): void {
  rmSync(noModelFolder, { recursive: true, force: true })
}

/** The options that open `name` with a model whose files are not there (`syntheticHost` gives known texts vectors). */
export function noModelOptions(name: string) {
  return { name, model: 'no-such-model', localModelPath: noModelFolder, requireModelFiles: false }
}

/** Opens the parts of the memory `name` on `factory`, as an engine would. */
export function openSyntheticParts(
  factory: IDBFactory,
  name: string,
  known: (input: string) => boolean,
): Promise<OpenedParts> {
  return openParts(noModelOptions(name), syntheticHost(factory, known))
}

/** Stores one message per text through `writes`, as `add` does (store, catalog, lexical index); resolves with their ids. */
export async function addTexts(parts: OpenedParts, writes: WriteQueue, texts: readonly string[]): Promise<string[]> {
  const batch = toValidMessages(
    texts.map((content) => ({ role: 'user', content })),
    Date.now(),
    () => crypto.randomUUID(),
    10_000,
  )
  return writes.run(async () => {
    const stored = await parts.store.addMessages(batch)
    parts.catalog.add(stored.messages)
    parts.lexical.add(stored.sentences)
    return stored.messages.map((m) => m.id)
  })
}

/** `count` one-sentence texts, numbered from `from`, each with `word` in it. */
export function notes(count: number, word: string, from = 0): string[] {
  return Array.from({ length: count }, (_, i) => `The ${word} note number ${from + i} is here.`)
}

/** Closes what `openSyntheticParts` opened. */
export async function closeParts(parts: OpenedParts): Promise<void> {
  await parts.embedder.dispose()
  parts.store.close()
}
