// Page-side steps of the soak benchmark (bench/soak/run.ts). Each exported function is handed to
// page.evaluate, which sends its source text to the page: so each must be self-contained (no imports at run time,
// no module-level helpers), and reaches the memory the demo page's test hook opened through `window.soak`.
import type { Memory, MessageInput } from '../../src/types'

/** One buildContext call a page's query loop made: when it started (epoch ms, the driver's clock) and how long it took. */
export interface QueryRecord {
  at: number
  ms: number
  budget: number
  /** The context was ranked lexically because the request could not be embedded (`ctx.stats.degraded`). */
  degraded: boolean
}

export interface SoakPageState {
  memory: Memory
  queries: QueryRecord[]
  /** Rejections of the query loop, by `SiftError.code` (or the error's name when it has no code). */
  queryErrors: Record<string, number>
  stopQueries: boolean
  queryLoop?: Promise<void>
}

/** What a wrapped call gives back: never a rejection, so that the driver can count every one by code. */
export type Outcome<T> = { ok: true; value: T; ms: number } | { ok: false; code: string; message: string }

declare global {
  interface Window {
    soak: SoakPageState
  }
}

export async function openSoakMemory(name: string): Promise<void> {
  const memory = await window.sift.createMemory({ name, device: 'wasm' })
  window.soak = { memory, queries: [], queryErrors: {}, stopQueries: false }
}

/** Runs buildContext back to back until `stopQueries`, cycling through the requests and the budgets. */
export function startQueryLoop({
  requests,
  budgets,
  offset,
}: {
  requests: string[]
  budgets: number[]
  offset: number
}): void {
  const state = window.soak
  state.queryLoop = (async () => {
    for (let i = offset; !state.stopQueries; i++) {
      const budget = budgets[i % budgets.length]
      const at = Date.now()
      const started = performance.now()
      try {
        const context = await state.memory.buildContext(requests[i % requests.length], { strategy: 'hybrid', budget })
        state.queries.push({
          at,
          ms: performance.now() - started,
          budget,
          degraded: context.stats.degraded !== undefined,
        })
      } catch (error) {
        const code = String((error as { code?: string }).code ?? (error as Error).name ?? 'unknown')
        state.queryErrors[code] = (state.queryErrors[code] ?? 0) + 1
      }
    }
  })()
}

export async function stopQueryLoop(): Promise<{ queries: QueryRecord[]; errors: Record<string, number> }> {
  window.soak.stopQueries = true
  await window.soak.queryLoop
  return { queries: window.soak.queries, errors: window.soak.queryErrors }
}

/** Counts of the query loop so far, for the progress line. */
export function queryProgress(): { queries: number; errors: number } {
  return {
    queries: window.soak.queries.length,
    errors: Object.values(window.soak.queryErrors).reduce((a, b) => a + b, 0),
  }
}

/** One call of the memory, timed, its rejection turned into a value with its code. */
export async function callMemory(
  call:
    | { method: 'add'; messages: MessageInput[] }
    | { method: 'forget'; id: string }
    | { method: 'stats' }
    | { method: 'indexed' }
    | { method: 'close' },
): Promise<Outcome<unknown>> {
  const memory = window.soak.memory
  const started = performance.now()
  try {
    const value =
      call.method === 'add'
        ? await memory.add(call.messages)
        : call.method === 'forget'
          ? await memory.forget({ id: call.id })
          : call.method === 'stats'
            ? await memory.stats()
            : call.method === 'indexed'
              ? await memory.indexed()
              : await memory.close()
    return { ok: true, value, ms: performance.now() - started }
  } catch (error) {
    return {
      ok: false,
      code: String((error as { code?: string }).code ?? (error as Error).name ?? 'unknown'),
      message: String((error as Error).message ?? error),
    }
  }
}

/** Message ids of the whole stored history as the memory reports it: the `full` strategy returns every sentence. */
export async function fullContextIds(): Promise<Outcome<string[]>> {
  const started = performance.now()
  try {
    const context = await window.soak.memory.buildContext('everything', { strategy: 'full' })
    return {
      ok: true,
      value: [...new Set(context.items.map((item) => item.messageId))],
      ms: performance.now() - started,
    }
  } catch (error) {
    return {
      ok: false,
      code: String((error as { code?: string }).code ?? (error as Error).name ?? 'unknown'),
      message: String((error as Error).message ?? error),
    }
  }
}

/** The primary keys of the `messages` store, read from IndexedDB directly, bypassing Sift. */
export async function rawMessageIds(name: string): Promise<string[]> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(name)
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(request.error)
  })
  try {
    return await new Promise<string[]>((resolve, reject) => {
      const request = db.transaction('messages', 'readonly').objectStore('messages').getAllKeys()
      request.onsuccess = () => resolve(request.result.map(String))
      request.onerror = () => reject(request.error)
    })
  } finally {
    db.close()
  }
}

/**
 * The page's memory with its workers (the engine's and the model's run in the page that leads), through
 * `performance.measureUserAgentSpecificMemory`, which needs cross-origin isolation (the static server sends
 * COOP/COEP). Chromium answers at its next garbage collection, so the wait is capped; `undefined` when it is
 * missing or did not answer in time.
 */
export async function measureUserAgentMemory(timeoutMs: number): Promise<number | undefined> {
  const measure = (performance as unknown as { measureUserAgentSpecificMemory?: () => Promise<{ bytes: number }> })
    .measureUserAgentSpecificMemory
  if (!self.crossOriginIsolated || typeof measure !== 'function') return undefined
  const timeout = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), timeoutMs))
  const result = await Promise.race([measure.call(performance).catch(() => undefined), timeout])
  return result?.bytes
}
