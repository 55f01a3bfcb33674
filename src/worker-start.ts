/**
 * How a thread learns why a module worker it started did not load. A module worker whose imports fail (a dependency
 * the app's bundler left unresolved, a module with a syntax error, a file that is not there) fires only an `error`
 * event with no detail on its starter. So each Sift worker's entry script is a bootstrap that imports the worker's real
 * module dynamically, where the failure can be caught, and posts the outcome (worker/rpc/module-bootstrap.ts); the
 * starter waits for it before its first call.
 */

/** What a worker's bootstrap posts once its module has loaded, or failed to. */
export interface ModuleLoadMessage {
  siftModuleLoad: 'loaded' | 'failed'
  /** For `'failed'`: the import's error as plain data, since not every thrown value survives a structured clone. */
  error?: { name: string; message: string; stack?: string }
}

/**
 * Resolves once `worker`'s module (everything it imports included) has loaded and run; rejects with the underlying
 * error when it did not: the import's own, posted by the bootstrap, or where the bootstrap itself did not load, what
 * the worker's `error` event tells.
 */
export function moduleLoaded(worker: Worker): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onMessage = (event: MessageEvent) => {
      const data = event.data as Partial<ModuleLoadMessage> | null
      if (typeof data !== 'object' || data === null || data.siftModuleLoad === undefined) return
      stopListening()
      if (data.siftModuleLoad === 'loaded') resolve()
      else reject(rebuiltError(data.error))
    }
    const onError = (event: Event) => {
      stopListening()
      reject(bootstrapError(event))
    }
    const stopListening = () => {
      worker.removeEventListener('message', onMessage)
      worker.removeEventListener('error', onError)
    }
    worker.addEventListener('message', onMessage)
    worker.addEventListener('error', onError)
  })
}

/** `cause` as a failed start reports it: `SyntaxError: The requested module …`, or only the message of a plain Error. */
export function failureDetail(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause)
  return cause.name === 'Error' ? cause.message : `${cause.name}: ${cause.message}`
}

function rebuiltError(posted: ModuleLoadMessage['error']): Error {
  const error = new Error(posted?.message ?? 'no detail was given')
  error.name = posted?.name ?? 'Error'
  if (posted?.stack) error.stack = posted.stack
  return error
}

/**
 * The error event of a worker whose entry script did not load or threw: its message when it has one; otherwise the
 * script was not there, not JavaScript, or refused by the page's Content-Security-Policy, which the browser does not
 * tell a page apart.
 */
function bootstrapError(event: Event): Error {
  const { message, error } = event as ErrorEvent
  if (error instanceof Error) return error
  return new Error(
    message ||
      "its script or one of its imports did not load (a missing file, a response that is not JavaScript, a module that does not link, or one the page's Content-Security-Policy refuses)",
  )
}
