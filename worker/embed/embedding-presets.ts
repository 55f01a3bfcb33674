import type { EmbeddingOptions } from '../../src/types'

/** Embedding options with every field decided. */
export type ResolvedEmbedding = Required<EmbeddingOptions>

/** The model used when `MemoryOptions.model` is not given: Universal Sentence Encoder Lite, converted to ONNX and shipped in `public/models/`. */
export const DEFAULT_MODEL = 'use-lite'

const BGE_QUERY_INSTRUCTION = 'Represent this sentence for searching relevant passages: '

/** Known model families by name: the pooling and prefixes they were trained with. */
function presetFor(model: string): ResolvedEmbedding {
  const name = model.toLowerCase()
  const base: ResolvedEmbedding = {
    pooling: 'mean',
    normalize: true,
    queryPrefix: '',
    documentPrefix: '',
    dtype: 'fp32',
    languages: 'all',
  }
  // int8 weights: a quarter of the fp32 download (most of a first visit's bytes), at the same LoCoMo recall
  // (BENCHMARKS.md, "The int8 model"), so the package ships only them.
  // Universal Sentence Encoder Lite was trained on English: its tokenizer knows Latin letters and a few others.
  if (/(^|\/)use-lite\/?$/.test(name)) return { ...base, pooling: 'none', dtype: 'q8', languages: ['en'] }
  if (name.includes('bge')) return { ...base, pooling: 'cls', queryPrefix: BGE_QUERY_INSTRUCTION }
  if (name.includes('e5')) return { ...base, queryPrefix: 'query: ', documentPrefix: 'passage: ' }
  return base
}

export function resolveEmbedding(model: string, overrides: EmbeddingOptions = {}): ResolvedEmbedding {
  const defined = Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined))
  return { ...presetFor(model), ...defined }
}

/** Identifies what produced stored vectors: change any part and they are re-embedded. The query prefix and the languages are not part of it. */
export function modelFingerprint(model: string, embedding: ResolvedEmbedding): string {
  const { pooling, normalize, documentPrefix, dtype } = embedding
  return JSON.stringify({ model, dtype, pooling, normalize, documentPrefix })
}
