// The engine exposed over comlink in its Web Worker, imported by the worker's bootstrap (engine-worker.ts).
import { expose } from 'comlink'
import { installSiftErrorTransfer } from '../../src/error-transfer'
import type { EngineApi } from '../../src/protocol'
import { holdLifetimeLock } from '../../src/worker-lifetime'
import { browserHost } from '../hosts/browser-host'
import { engineApi } from './engine-api'

installSiftErrorTransfer()
// The page named this worker uniquely and learns of its end through a lock of that name (src/worker-lifetime.ts);
// `open` answers only once the lock is held, so the page asks for it after this worker does.
const lifetime = holdLifetimeLock(self.name)
const api = engineApi(browserHost)
const workerApi: EngineApi = {
  ...api,
  open: async (options, onProgress) => {
    await lifetime
    return api.open(options, onProgress)
  },
}
expose(workerApi)
