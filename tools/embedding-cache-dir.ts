import { fileURLToPath } from 'node:url'

/** Where the CLI and the benchmarks cache vectors between runs unless `--cache` says otherwise (git-ignored). */
export const DEFAULT_EMBEDDING_CACHE_DIR = fileURLToPath(new URL('../.cache/embeddings', import.meta.url))
