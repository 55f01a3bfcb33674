// The bench page's encryption section: the same synthetic history stored plain and encrypted, each grown through the
// bench worker (synthetic vectors) and then opened cold by the product path, `createMemory()` in its real worker.
import { wrap } from 'comlink'
import { createMemory } from '../../src/index'
import type { MemoryOptions } from '../../src/types'
import { deleteDatabase } from './delete-database'
import type { ColdStartRun, EncryptionCost, EncryptionLoad } from './perf-results'
import type { SiftBenchWorkerApi } from './sift-bench-worker'
import { generateHistory, generateQueries, type SyntheticHistory } from '../shared/synthetic-history'

/** Messages per `add` while loading, as the main load does. */
const LOAD_CHUNK = 1000
/** After a load, longer than the engine's quiet time before it saves its lexical snapshot and coarse lists. */
const SAVE_WAIT_MS = 3000
const PASSPHRASE = 'bench passphrase: correct horse battery staple'

type KeyOptions = Pick<MemoryOptions, 'key' | 'passphrase'>

/** Loads `size` sentences into a plain and a `CryptoKey`-encrypted store, opens each cold `repeats` times, changes the key to a passphrase and opens that too. */
export async function measureStores(
  size: number,
  repeats: number,
  log: (message: string) => void,
): Promise<Omit<EncryptionCost, 'ingest'>> {
  const history = generateHistory(size)
  const requests = generateQueries(repeats, history, size).map((q) => q.text)
  const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt'])
  const plainName = 'bench-encryption-plain'
  const encryptedName = 'bench-encryption-sealed'
  try {
    log(`encryption ${size}: load plain`)
    const plainLoad = await load(plainName, history, {})
    log(`encryption ${size}: load encrypted (CryptoKey)`)
    const encryptedLoad = await load(encryptedName, history, { key })
    log(`encryption ${size}: cold starts`)
    const plain = await coldStarts(plainName, {}, requests)
    const keyed = await coldStarts(encryptedName, { key }, requests)
    const memory = await createMemory({ name: encryptedName, key })
    const started = performance.now()
    await memory.changeKey({ passphrase: PASSPHRASE })
    const changeKeyMs = performance.now() - started
    await memory.close()
    log(`encryption ${size}: changeKey ${Math.round(changeKeyMs)} ms; cold starts with the passphrase`)
    const passphrase = await coldStarts(encryptedName, { passphrase: PASSPHRASE }, requests)
    return {
      size,
      load: { plain: plainLoad, encrypted: encryptedLoad },
      coldStart: { plain, key: keyed, passphrase },
      changeKeyMs,
    }
  } finally {
    await deleteDatabase(plainName)
    await deleteDatabase(encryptedName)
  }
}

/** The passphrase the encrypted ingest runs use. */
export const INGEST_KEY: KeyOptions = { passphrase: PASSPHRASE }

async function load(name: string, history: SyntheticHistory, keyOptions: KeyOptions): Promise<EncryptionLoad> {
  await deleteDatabase(name)
  const worker = new Worker(new URL('./sift-bench-worker.ts', import.meta.url), {
    type: 'module',
    name: `sift-bench-${name}`,
  })
  const remote = wrap<SiftBenchWorkerApi>(worker)
  try {
    await remote.prepare(history.sentences.length, 0, history.sentences.length)
    await remote.open({ name, device: 'wasm', ...keyOptions })
    const started = performance.now()
    for (let at = 0; at < history.messages.length; at += LOAD_CHUNK)
      await remote.add(history.messages.slice(at, at + LOAD_CHUNK))
    const addMs = performance.now() - started
    await remote.indexed()
    const indexedMs = performance.now() - started - addMs
    const counts = (await remote.cacheCounts())!
    if (counts.misses > 0)
      throw new Error(
        `encryption load: ${counts.misses} sentence texts missed the synthetic cache and were embedded by the model`,
      )
    await new Promise((resolve) => setTimeout(resolve, SAVE_WAIT_MS))
    return { addMs, indexedMs, generateMs: counts.generateMs }
  } finally {
    await remote.close().catch(() => undefined)
    worker.terminate()
  }
}

async function coldStarts(name: string, keyOptions: KeyOptions, requests: readonly string[]): Promise<ColdStartRun[]> {
  const runs: ColdStartRun[] = []
  for (const request of requests) {
    const started = performance.now()
    const memory = await createMemory({ name, ...keyOptions })
    const openMs = performance.now() - started
    await memory.buildContext(request)
    const totalMs = performance.now() - started
    runs.push({ openMs, firstContextMs: totalMs - openMs, totalMs })
    await memory.close()
  }
  return runs
}
