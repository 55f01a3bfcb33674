import { SiftError } from '../../src/errors'
import type { ModelOptions } from './model-runner'
import { wasmTrapIn } from './wasm-trap'

/** How `loadFailureDetail` says that a model file came back as an HTML page, which `modelLoadFailure` then explains. */
const HTML_PAGE = 'a model file is an HTML page, not JSON'

/**
 * The `MODEL_UNAVAILABLE` error for a model that no backend could load, `failures` being each backend's error. It
 * says which option to look at: `wasmPaths` when ONNX Runtime's own files failed, `localModelPath` otherwise, and
 * when a model file came back as an HTML page (`loadFailureDetail`), that the server does not have the model's folder
 * where it was looked for. A backend whose WebAssembly trapped (`trap`) is no file's fault: the error says so and keeps
 * the trap as its cause, by which the model's runner knows to load it afresh (`restartingOnTrap`).
 */
export function modelLoadFailure(
  options: Pick<ModelOptions, 'model' | 'localModelPath' | 'wasmPaths' | 'allowRemoteModels'>,
  failures: readonly string[],
  trap?: unknown,
): SiftError {
  const { model, localModelPath, wasmPaths } = options
  const folder = `${localModelPath.endsWith('/') ? localModelPath : `${localModelPath}/`}${model}/`
  const said = failures.join('; ')
  let advice: string
  if (wasmTrapIn(trap) !== undefined) {
    advice =
      "ONNX Runtime's WebAssembly trapped while loading it, which no option causes; the model is loaded afresh on the next call."
  } else if (wasmPaths !== undefined && said.includes(wasmPaths)) {
    advice = `ONNX Runtime's files did not load from ${wasmPaths}: serve onnxruntime-web's dist/ort-wasm*.wasm and .mjs files there, or set the wasmPaths option to where they are.`
  } else if (said.includes(HTML_PAGE)) {
    advice = `A model file came back as an HTML page: the server has no model folder at ${folder} and answered with its fallback page. Serve the model's folder there, or set the localModelPath option to where it is.`
  } else {
    advice = `Serve the model's folder (config.json, tokenizer files, onnx/) at ${folder}, set the localModelPath option to where it is${options.allowRemoteModels ? '' : ', or allow remote models (allowRemoteModels)'}.`
  }
  return new SiftError(
    'MODEL_UNAVAILABLE',
    `Could not load the embedding model "${model}" from localModelPath "${localModelPath}" (${said}). ${advice}`,
    trap === undefined ? undefined : { cause: trap },
  )
}

/**
 * What one backend's failure to load the model says, in `modelLoadFailure` and in `stats()`' backend reason: its error's
 * message, except for a model file that is not JSON. transformers.js passes `JSON.parse`'s error on, and its message
 * quotes the file's first bytes; the folder is the app's to choose, so this says what the file is not without them,
 * and whether it is an HTML page (a '<' where JSON was expected: a dev server's fallback page).
 */
export function loadFailureDetail(error: unknown): string {
  const message = (error as Error)?.message ?? String(error)
  if (!(error instanceof SyntaxError && message.includes('JSON'))) return message
  return message.includes("'<'") ? HTML_PAGE : 'a model file is not valid JSON'
}
