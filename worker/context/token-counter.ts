import { SiftError } from '../../src/errors'
import type { TokenizerName } from '../../src/types'

/** How many tokens `text` is to the LLM: the whole text encoded as plain text, as a chat API encodes a message. */
export type CountTokens = (text: string) => number

/** Reads a tokenizer.json the app serves: its URL, or its path resolved like the model's files. */
export type ReadTokenizerFile = (path: string) => Promise<ArrayBuffer>

/**
 * The engine's tokenizers, each loaded the first time a token budget names it and kept for the engine's life. Each is
 * its own dynamic import, so a memory that budgets in characters loads none, and one that names `o200k_base` loads
 * that encoding's table alone, in an app's build too (vite.config.ts, `tokenizersByUrl`).
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
  if (tokenizer === 'o200k_base') return gptCounter('o200k_base', import('gpt-tokenizer/bpeRanks/o200k_base'))
  if (tokenizer === 'cl100k_base') return gptCounter('cl100k_base', import('gpt-tokenizer/bpeRanks/cl100k_base'))
  return loadTokenizerJson(tokenizer, readFile)
}

/**
 * An OpenAI encoding's counter: gpt-tokenizer's encoder with the encoding's rank table. The table is imported on its
 * own, as a module that imports nothing, so that the library build can make it a file an app's bundler copies rather
 * than bundles (vite.config.ts, `tokenizersByUrl`).
 */
async function gptCounter(
  name: 'o200k_base' | 'cl100k_base',
  ranks: Promise<{ default: (string | number[])[] }>,
): Promise<CountTokens> {
  const [{ GptEncoding }, { default: table }] = await Promise.all([import('gpt-tokenizer/GptEncoding'), ranks])
  const encoding = GptEncoding.getEncodingApi(name, () => table)
  return (text) => encoding.countTokens(text, PLAIN_TEXT)
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
