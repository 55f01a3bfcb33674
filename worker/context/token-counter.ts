import { SiftError } from '../../src/errors'
import type { TokenizerName } from '../../src/types'

/** How many tokens `text` is to the LLM: the whole text encoded as plain text, as a chat API encodes a message. */
export type CountTokens = (text: string) => number

/** Reads a tokenizer.json the app serves: its URL, or its path resolved like the model's files. */
export type ReadTokenizerFile = (path: string) => Promise<ArrayBuffer>

/**
 * The engine's tokenizers, each loaded the first time a token budget names it and kept for the engine's life. Each is
 * its own dynamic import, so a memory that budgets in characters loads none, and one that names `o200k_base` loads
 * that encoding's table alone.
 */
export class TokenCounters {
  private readonly loaded = new Map<TokenizerName, Promise<CountTokens>>()

  constructor(private readonly readFile: ReadTokenizerFile) {}

  /** The counter for `tokenizer`; a load that failed is tried again on the next call. */
  counter(tokenizer: TokenizerName): Promise<CountTokens> {
    let counter = this.loaded.get(tokenizer)
    if (counter === undefined) {
      counter = loadCounter(tokenizer, this.readFile)
      this.loaded.set(tokenizer, counter)
      counter.catch(() => this.loaded.delete(tokenizer))
    }
    return counter
  }
}

/**
 * Text is counted as plain text: content that spells a special token (`<|endoftext|>`) counts as the characters it
 * is, which is how a chat API encodes a message's content, instead of being refused.
 */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() }

async function loadCounter(tokenizer: TokenizerName, readFile: ReadTokenizerFile): Promise<CountTokens> {
  if (tokenizer === 'o200k_base') {
    const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base')
    return (text) => countTokens(text, PLAIN_TEXT)
  }
  if (tokenizer === 'cl100k_base') {
    const { countTokens } = await import('gpt-tokenizer/encoding/cl100k_base')
    return (text) => countTokens(text, PLAIN_TEXT)
  }
  return loadTokenizerJson(tokenizer, readFile)
}

/**
 * A Hugging Face tokenizer.json, read by the tokenizer library transformers.js itself reads them with. The path may
 * come from the app's user, so what a refusal says of the file is its size and what it is not, never its bytes:
 * neither `JSON.parse`'s message (which quotes the text) nor the library's (which quotes the fields it does not know)
 * is passed on, and neither is kept as the cause.
 */
async function loadTokenizerJson(path: string, readFile: ReadTokenizerFile): Promise<CountTokens> {
  let bytes: ArrayBuffer
  try {
    bytes = await readFile(path)
  } catch (error) {
    throw new SiftError(
      'MODEL_UNAVAILABLE',
      `buildContext: the tokenizer "${path}" could not be read (${(error as Error)?.message ?? String(error)}); serve the file, or name 'o200k_base' or 'cl100k_base'.`,
      { cause: error },
    )
  }
  const size = `${bytes.byteLength} bytes`
  let json: unknown
  try {
    json = JSON.parse(new TextDecoder().decode(bytes))
  } catch {
    throw new SiftError(
      'MODEL_UNAVAILABLE',
      `buildContext: the tokenizer "${path}" (${size}) is not valid JSON, so not a tokenizer.json; name a model's tokenizer.json, or 'o200k_base' or 'cl100k_base'.`,
    )
  }
  const { Tokenizer } = await import('@huggingface/tokenizers')
  let tokenizer: InstanceType<typeof Tokenizer>
  try {
    tokenizer = new Tokenizer(json as object, {})
  } catch {
    throw new SiftError(
      'MODEL_UNAVAILABLE',
      `buildContext: the tokenizer "${path}" (${size}) is JSON but not a tokenizer.json Sift can read; name a model's tokenizer.json, or 'o200k_base' or 'cl100k_base'.`,
    )
  }
  // Without the model's special tokens: they frame a whole prompt, not a part of it.
  return (text) => tokenizer.encode(text, { add_special_tokens: false }).ids.length
}
