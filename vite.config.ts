import { isAbsolute } from 'node:path'
import MagicString from 'magic-string'
import { defineConfig, type Plugin } from 'vite'

/**
 * In the library build every bare import (dependencies, their own dependencies such as onnxruntime-node, Node
 * built-ins) stays an import: the app's bundler or Node resolves it, and the app gets one copy of each.
 */
function isExternal(id: string): boolean {
  return !id.startsWith('.') && !id.startsWith('\0') && !isAbsolute(id) && !id.startsWith('vite/')
}

/**
 * tsc writes declarations beside their sources (`dist/src/`, `dist/worker/`), since the entries import the
 * engine's types from `worker/`; these two files give package.json's `types` paths their entry points.
 */
function declarationEntries(): Plugin {
  return {
    name: 'sift:declaration-entries',
    apply: 'build',
    generateBundle() {
      for (const entry of ['index', 'node']) {
        this.emitFile({ type: 'asset', fileName: `${entry}.d.ts`, source: `export * from './src/${entry}'\n` })
      }
    },
  }
}

/**
 * Vite writes a library's worker URL as
 * `new URL(/* @vite-ignore *\/ new URL("assets/w.js", import.meta.url).href, "" + import.meta.url)`,
 * which an app's bundler skips, so the worker's bare imports would reach the browser unresolved. Rewritten
 * to the plain `new URL("./assets/w.js", import.meta.url)` form, the app's bundler (Vite, webpack, Rollup)
 * recognises the worker and bundles it with its dependencies.
 */
function bundlerVisibleWorkerUrl(): Plugin {
  const viteIgnoredUrl =
    /new URL\(\s*\/\* @vite-ignore \*\/\s*(?:new URL\("([^"]+)", import\.meta\.url\)\.href|"([^"]+)"),\s*(?:""|'') \+ import\.meta\.url\s*\)/g
  return {
    name: 'sift:bundler-visible-worker-url',
    apply: 'build',
    renderChunk(code) {
      const edited = new MagicString(code)
      for (const match of code.matchAll(viteIgnoredUrl)) {
        const url = match[1] ?? match[2] ?? ''
        const relative = url.startsWith('.') || url.startsWith('/') ? url : `./${url}`
        edited.overwrite(match.index, match.index + match[0].length, `new URL(${JSON.stringify(relative)}, import.meta.url)`)
      }
      return edited.hasChanged() ? { code: edited.toString(), map: edited.generateMap({ hires: true }) } : null
    },
  }
}

export default defineConfig(({ mode }) => {
  if (mode === 'lib') {
    return {
      // Relative asset URLs: the worker file is found next to dist/index.js wherever the package is installed.
      base: './',
      publicDir: false,
      plugins: [bundlerVisibleWorkerUrl(), declarationEntries()],
      // The engine worker starts the model's worker: its URL needs the same rewrite inside the worker bundle.
      worker: { format: 'es', plugins: () => [bundlerVisibleWorkerUrl()], rolldownOptions: { external: isExternal } },
      build: {
        outDir: 'dist',
        emptyOutDir: true,
        target: 'es2022',
        minify: false,
        sourcemap: true,
        lib: { entry: { index: 'src/index.ts', node: 'src/node.ts' }, formats: ['es'] },
        rolldownOptions: { external: isExternal },
      },
    }
  }
  return {
    // The demo: index.html + demo/, with public/ (model, ONNX Runtime wasm) copied as-is.
    worker: { format: 'es' },
    build: { outDir: 'dist-demo', emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 4096 },
  }
})
