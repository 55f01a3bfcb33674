import { SiftError, withSiftErrors } from '../../src/errors'
import type { EngineApi, EngineOptions } from '../../src/protocol'
import { Engine } from '../engine/engine'
import type { EngineHost } from '../hosts/engine-host'

/**
 * The `EngineApi` a worker exposes over comlink and the Node entry uses in-process: `open` once, then the `Memory`
 * methods of the engine it opened. It is the API boundary: whatever a method throws reaches the caller as a
 * `SiftError`.
 */
export function engineApi(hostFor: (options: EngineOptions) => EngineHost): EngineApi {
  let engine: Engine | undefined
  const opened = (): Engine => {
    if (!engine) throw new SiftError('CLOSED', 'The memory is not open; create one with createMemory().')
    return engine
  }
  return {
    open: (options, onProgress) =>
      withSiftErrors('createMemory', async () => {
        if (engine)
          throw new SiftError(
            'INVALID_INPUT',
            'This worker already holds an open memory; create another with createMemory().',
          )
        engine = await Engine.open({ ...options, onProgress }, hostFor(options))
      }),
    add: (message) => withSiftErrors('add', () => opened().add(message)),
    indexed: () => withSiftErrors('indexed', () => opened().indexed()),
    ready: () => withSiftErrors('ready', () => opened().ready()),
    buildContext: (request, options) => withSiftErrors('buildContext', () => opened().buildContext(request, options)),
    forget: (selector) => withSiftErrors('forget', () => opened().forget(selector)),
    findForgettable: (text, options) =>
      withSiftErrors('findForgettable', () => opened().findForgettable(text, options)),
    messages: (options) => withSiftErrors('messages', () => opened().messages(options)),
    pin: (messageId) => withSiftErrors('pin', () => opened().pins.pin(messageId)),
    unpin: (messageId) => withSiftErrors('unpin', () => opened().pins.unpin(messageId)),
    pins: (conversationId) => withSiftErrors('pins', () => opened().pins.list(conversationId)),
    setSummary: (conversationId, text, options) =>
      withSiftErrors('setSummary', () => opened().summaries.set(conversationId, text, options)),
    summary: (conversationId) => withSiftErrors('summary', () => opened().summaries.get(conversationId)),
    clearSummary: (conversationId) => withSiftErrors('clearSummary', () => opened().summaries.clear(conversationId)),
    clear: () => withSiftErrors('clear', () => opened().clear()),
    export: (options) => withSiftErrors('export', () => opened().export(options)),
    import: (data, options) => withSiftErrors('import', () => opened().import(data, options)),
    changeKey: (next) => withSiftErrors('changeKey', () => opened().changeKey(next)),
    stats: () => withSiftErrors('stats', () => opened().stats()),
    close: () => withSiftErrors('close', () => opened().close()),
  }
}
