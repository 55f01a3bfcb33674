import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

const benchRoot = fileURLToPath(new URL('.', import.meta.url))

/** Where `npm run bench:perf` builds the bench page (git-ignored, like every `.cache/` output). */
export const benchSiteDir = fileURLToPath(new URL('../../.cache/bench-perf/site', import.meta.url))

/**
 * The bench page (bench/perf/perf.html) with its workers: the product worker reached through `src/index.ts`, the
 * bench's own workers, and `public/` (model, ONNX Runtime wasm) served from the same origin as in an app.
 */
export default defineConfig({
  root: benchRoot,
  publicDir: fileURLToPath(new URL('../../public', import.meta.url)),
  logLevel: 'warn',
  worker: { format: 'es' },
  build: {
    outDir: benchSiteDir,
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 8192,
    rolldownOptions: { input: fileURLToPath(new URL('perf.html', import.meta.url)) },
  },
})
