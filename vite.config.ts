import { builtinModules } from 'node:module'
import { readFileSync } from 'node:fs'
import { defineConfig, type Plugin } from 'vite'

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  dependencies?: Record<string, string>
}
const dependencies = Object.keys(pkg.dependencies ?? {})

/** Bare imports of dependencies (and their subpaths) and Node built-ins stay imports in the library build. */
function isExternal(id: string): boolean {
  if (id.startsWith('node:') || builtinModules.includes(id)) return true
  return dependencies.some((name) => id === name || id.startsWith(`${name}/`))
}

/**
 * Vite writes a library's worker URL as `new URL(/* @vite-ignore *\/ "assets/w.js", '' + import.meta.url)`,
 * which an app's bundler skips, so the worker's bare imports would reach the browser unresolved. Rewritten
 * to the plain `new URL("./assets/w.js", import.meta.url)` form, the app's bundler (Vite, webpack, Rollup)
 * recognises the worker and bundles it with its dependencies.
 */
function bundlerVisibleWorkerUrl(): Plugin {
  const viteIgnoredUrl = /new URL\(\s*\/\* @vite-ignore \*\/\s*"([^"]+)",\s*'' \+ import\.meta\.url\s*\)/g
  return {
    name: 'sift:bundler-visible-worker-url',
    apply: 'build',
    renderChunk(code) {
      if (!viteIgnoredUrl.test(code)) return null
      return code.replace(viteIgnoredUrl, (_, url: string) => {
        const relative = url.startsWith('.') || url.startsWith('/') ? url : `./${url}`
        return `new URL(${JSON.stringify(relative)}, import.meta.url)`
      })
    },
  }
}

export default defineConfig(({ mode }) => {
  if (mode === 'lib') {
    return {
      publicDir: false,
      plugins: [bundlerVisibleWorkerUrl()],
      worker: { format: 'es', rolldownOptions: { external: isExternal } },
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
