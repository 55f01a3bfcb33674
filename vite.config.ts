import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, isAbsolute, join, posix, relative, resolve, sep } from 'node:path'
import MagicString from 'magic-string'
import ts from 'typescript'
import { defineConfig, type Plugin } from 'vite'

/**
 * In the library build every bare import (dependencies, their own dependencies such as onnxruntime-node, Node
 * built-ins) stays an import: the app's bundler or Node resolves it, and the app gets one copy of each.
 */
function isExternal(id: string): boolean {
  return !id.startsWith('.') && !id.startsWith('\0') && !isAbsolute(id) && !id.startsWith('vite/')
}

/**
 * The published types are the public API only. tsc type-checks the entries with everything they import (the engine
 * included, so a type error anywhere fails the build), and of the declarations it emits only those the entries
 * reach are written, from `src/` to the root of `outDir` (`index.d.ts`, `node.d.ts`, `types.d.ts`, …), where
 * package.json's `types` paths point. A reached declaration that imports from outside `src/` fails the build: it
 * would publish the engine's internals as API.
 */
function publicDeclarations(): Plugin {
  let root = ''
  let outDir = ''
  return {
    name: 'sift:public-declarations',
    apply: 'build',
    configResolved(config) {
      root = config.root
      outDir = resolve(config.root, config.build.outDir)
    },
    async writeBundle() {
      for (const [path, text] of publicDeclarationFiles(root)) {
        await mkdir(dirname(join(outDir, path)), { recursive: true })
        await writeFile(join(outDir, path), text)
      }
    },
  }
}

/** The declarations reached from `src/index.ts` and `src/node.ts`, keyed by their path relative to `src/`. */
function publicDeclarationFiles(root: string): Map<string, string> {
  const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic: ts.Diagnostic) => failOn([diagnostic]) }
  const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.build.json'), {}, host)!
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options })
  const emitted = new Map<string, string>()
  const result = program.emit(undefined, (fileName, text) => emitted.set(relative(config.options.outDir!, fileName).split(sep).join('/'), text))
  failOn([...ts.getPreEmitDiagnostics(program), ...result.diagnostics])
  const reached = new Map<string, string>()
  const pending = ['src/index.d.ts', 'src/node.d.ts']
  for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
    if (reached.has(path.slice('src/'.length))) continue
    const text = emitted.get(path)
    if (text === undefined) throw new Error(`Public declarations: ${path} was not emitted.`)
    reached.set(path.slice('src/'.length), text)
    const { importedFiles, referencedFiles } = ts.preProcessFile(text, true, true)
    for (const { fileName: specifier } of [...importedFiles, ...referencedFiles]) {
      if (!specifier.startsWith('.')) continue
      const target = posix.join(posix.dirname(path), specifier)
      if (!target.startsWith('src/')) throw new Error(`Public declarations: ${path} imports ${specifier}, outside src/; the published types must not expose the engine.`)
      pending.push(emitted.has(`${target}.d.ts`) ? `${target}.d.ts` : `${target}/index.d.ts`)
    }
  }
  return reached
}

function failOn(diagnostics: readonly ts.Diagnostic[]): void {
  if (diagnostics.length === 0) return
  throw new Error(ts.formatDiagnostics(diagnostics, { getCanonicalFileName: (name) => name, getCurrentDirectory: () => process.cwd(), getNewLine: () => '\n' }))
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
      plugins: [bundlerVisibleWorkerUrl(), publicDeclarations()],
      // The engine worker starts the model's worker: its URL needs the same rewrite inside the worker bundle.
      worker: { format: 'es', plugins: () => [bundlerVisibleWorkerUrl()], rolldownOptions: { external: isExternal } },
      build: {
        outDir: 'dist',
        emptyOutDir: true,
        target: 'es2022',
        minify: false,
        sourcemap: true,
        lib: { entry: { index: 'src/index.ts', node: 'src/node.ts' }, formats: ['es'] },
        // The declarations' type check is most of the build's time, by design: not worth a warning every build.
        rolldownOptions: { external: isExternal, checks: { bundlerTimings: false } },
      },
    }
  }
  return {
    // The demo: index.html + demo/, with public/ (model, ONNX Runtime wasm) copied as-is.
    worker: { format: 'es' },
    build: { outDir: 'dist-demo', emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 4096 },
  }
})
