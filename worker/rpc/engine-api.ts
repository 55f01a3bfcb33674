import { SiftError, withSiftErrors } from '../../src/errors'
import type { EngineApi, EngineOptions } from '../../src/protocol'
import { ClearBarrier } from '../engine/clear-barrier'
import { Engine } from '../engine/engine'
import type { EngineHost } from '../hosts/engine-host'
import { toForgetSelector } from '../input/forget-selector'
import { toSyncSettings } from '../input/sync-option'
import { SyncLink } from '../sync/sync-link'

/**
 * The `EngineApi` a worker exposes over comlink and the Node entry uses in-process: `open` once, then the `Memory`
 * methods of the engine it opened. It is the API boundary: whatever a method throws reaches the caller as a
 * `SiftError`, and every call passes the `ClearBarrier`, so that a call made after `clear` finds the memory empty.
 */
export function engineApi(hostFor: (options: EngineOptions) => EngineHost): EngineApi {
  let engine: Engine | undefined
  let sync: SyncLink | undefined
  const opened = (): Engine => {
    if (!engine) throw new SiftError('CLOSED', 'The memory is not open; create one with createMemory().')
    return engine
  }
  // Here rather than in the engine: the pins and summaries a call reaches are the engine's parts that a clear replaces,
  // so they are looked up only once the call has passed the barrier.
  const barrier = new ClearBarrier()
  const call = <T>(method: string, run: (engine: Engine) => Promise<T>): Promise<T> =>
    withSiftErrors(method, () => barrier.after(() => run(opened())))
  /** A call that changes what the memory holds: sync carries the change once it is done. */
  const write = async <T>(method: string, run: (engine: Engine) => Promise<T>): Promise<T> => {
    try {
      return await call(method, run)
    } finally {
      sync?.changed()
    }
  }
  /** An add or import: sync dates what it stores from when it began (`SyncLink.storing`). */
  const storing = <T>(work: () => Promise<T>): Promise<T> => (sync ? sync.storing(work) : work())
  return {
    open: (options, onProgress) =>
      withSiftErrors('createMemory', async () => {
        if (engine)
          throw new SiftError(
            'INVALID_INPUT',
            'This worker already holds an open memory; create another with createMemory().',
          )
        const settings = toSyncSettings(options)
        const host = hostFor(options)
        const opening = await Engine.open({ ...options, onProgress }, host)
        try {
          if (settings) sync = await SyncLink.start(settings, opening.syncedHistory(), await host.syncMirrorAdapter())
        } catch (error) {
          await opening.close()
          throw error
        }
        engine = opening
      }),
    add: (message) => write('add', (engine) => storing(() => engine.add(message))),
    indexed: () => call('indexed', (engine) => engine.indexed()),
    ready: () => call('ready', (engine) => engine.ready()),
    buildContext: (request, options) => call('buildContext', (engine) => engine.buildContext(request, options)),
    forget: (selector) =>
      write('forget', async (engine) => {
        // Validated first: sync records a forget by scope before the store forgets (`SyncLink.forgetting`).
        await sync?.forgetting(toForgetSelector(selector))
        return engine.forget(selector)
      }),
    findForgettable: (text, options) => call('findForgettable', (engine) => engine.findForgettable(text, options)),
    findForgetRequest: (text) => call('findForgetRequest', (engine) => engine.findForgetRequest(text)),
    messages: (options) => call('messages', (engine) => engine.messages(options)),
    pin: (messageId) => write('pin', (engine) => engine.pins.pin(messageId)),
    unpin: (messageId) => write('unpin', (engine) => engine.pins.unpin(messageId)),
    pins: (conversationId) => call('pins', (engine) => engine.pins.list(conversationId)),
    setSummary: (conversationId, text, options) =>
      write('setSummary', (engine) => engine.summaries.set(conversationId, text, options)),
    summary: (conversationId) => call('summary', (engine) => engine.summaries.get(conversationId)),
    clearSummary: (conversationId) => write('clearSummary', (engine) => engine.summaries.clear(conversationId)),
    clear: () =>
      withSiftErrors('clear', async () => {
        const removed = await barrier.clear(async () => {
          const engine = opened()
          // Noted in the mirror before the store is cleared, for a round in any session (`SyncLink.clearing`).
          await sync?.clearing()
          return engine.clear()
        })
        sync?.cleared()
        return removed
      }),
    export: (options) => call('export', (engine) => engine.export(options)),
    import: (data, options) => write('import', (engine) => storing(() => engine.import(data, options))),
    changeKey: (next) => call('changeKey', (engine) => engine.changeKey(next)),
    stats: () => call('stats', (engine) => engine.stats()),
    synced: () =>
      call('synced', async () => {
        if (!sync) throw new SiftError('INVALID_INPUT', 'synced: this memory was opened without MemoryOptions.sync.')
        await sync.synced()
      }),
    close: () =>
      call('close', async (engine) => {
        await sync?.stop()
        await engine.close()
      }),
  }
}
