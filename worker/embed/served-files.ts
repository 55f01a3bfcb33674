import { SiftError } from '../../src/errors'
import type { ModelFile } from './model-files'

/** Why a file counts as not served: the server's answer to a request for it. */
interface MissingFile extends ModelFile {
  answer: string
}

/** How long a HEAD request may go unanswered before it counts as no answer (a slow server, not a missing file). */
const HEAD_TIMEOUT_MS = 10_000

/** Default folders, to tell an app that never set the option where the file was looked for. */
const OPTION_DEFAULTS: Record<ModelFile['option'], string> = { wasmPaths: "'/ort/'", localModelPath: "'/models/'" }

const WHAT_IS_SERVED: Record<ModelFile['option'], string> = {
  wasmPaths: "ONNX Runtime's files (onnxruntime-web's dist/ort-wasm*.wasm and .mjs)",
  localModelPath: "The model's files (config.json, tokenizer files, onnx/ weights)",
}

/**
 * Rejects with `MODEL_UNAVAILABLE` naming the option and the URLs when the server answers that any of `files` is not
 * there: an error status, or an HTML page instead of the file (a dev server's fallback for a path it does not have,
 * which transformers.js would otherwise report as `Unexpected token '<'`). HEAD requests: nothing is downloaded. An
 * answer that says nothing about the file (no answer at all, a server error, HEAD not allowed) passes: the load
 * itself will tell, and a memory must not be refused for a network blip.
 */
export async function assertFilesServed(files: readonly ModelFile[]): Promise<void> {
  const answers = await Promise.all(files.map(async (file) => ({ ...file, answer: await missingAnswer(file.url) })))
  const missing = answers.filter((file): file is MissingFile => file.answer !== undefined)
  if (missing.length === 0) return
  const byOption = (['wasmPaths', 'localModelPath'] as const).flatMap((option) => {
    const ofOption = missing.filter((file) => file.option === option)
    if (ofOption.length === 0) return []
    const list = ofOption.map((file) => `${file.url} (${file.answer})`).join(', ')
    return [
      `${WHAT_IS_SERVED[option]} are not served where createMemory's \`${option}\` option (default ${OPTION_DEFAULTS[option]}) points: ${list}. Serve them there, or set \`${option}\` to where they are.`,
    ]
  })
  throw new SiftError('MODEL_UNAVAILABLE', `The embedding model cannot load. ${byOption.join(' ')}`)
}

/** What the server said that shows `url` is not served, or `undefined` if it is (or the answer cannot tell). */
async function missingAnswer(url: string): Promise<string | undefined> {
  let response: Response
  try {
    // A server that never answers must not keep createMemory waiting: it has said nothing about the file.
    response = await fetch(url, { method: 'HEAD', cache: 'no-store', signal: AbortSignal.timeout(HEAD_TIMEOUT_MS) })
    // The (empty) body read to its end: a response left unread is cancelled when it is collected, and the browser
    // then lists the request as failed (net::ERR_ABORTED), which reads like a model that is not served.
    await response.arrayBuffer()
  } catch {
    return undefined
  }
  // 405/501: a server without HEAD; 5xx: a server in trouble, not one saying the file is absent.
  if (response.status === 405 || response.status === 501 || response.status >= 500) return undefined
  if (!response.ok) return `HTTP ${response.status}`
  const type = response.headers.get('content-type') ?? ''
  if (/^text\/html\b/i.test(type))
    return 'an HTML page instead of the file, as a server answers for a path it does not have'
  return undefined
}
