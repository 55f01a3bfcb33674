import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { dirname, join, posix, relative, resolve, sep } from 'node:path'
import MagicString from 'magic-string'
import ts from 'typescript'
import { defaultClientConditions, defineConfig, type Plugin } from 'vite'

/** The package's entries, each `src/<entry>.ts` built to `dist/<entry>.js` with its `dist/<entry>.d.ts`. */
const ENTRIES = ['index', 'node', 'vite', 'ai', 'react']

/**
 * What the library build leaves to the app. Everything else (comlink, Dexie, fake-indexeddb, and in the model's worker
 * transformers.js with ONNX Runtime's JavaScript) is bundled: an app installs no runtime dependency but
 * onnxruntime-web, for its wasm files, and no bundler of the app has to resolve, pre-bundle or re-transform what
 * Sift's workers import. Left out: Node's built-ins; transformers.js for the Node entry, whose Node build brings a
 * native ONNX Runtime; and the frameworks of the integration entries, the AI SDK (`sift-memory/ai`) and React
 * (`sift-memory/react`), which must be the app's own copies; and PouchDB's memory adapter, which only a Node app that
 * turns sync on needs (the browser's sync, PouchDB with its IndexedDB adapter, is bundled and loaded only when sync is
 * on). All are optional peer dependencies, so an app installs only those it uses.
 */
function isExternal(id: string): boolean {
  return (
    id.startsWith('node:') ||
    id === '@huggingface/transformers' ||
    id === 'ai' ||
    id === 'react' ||
    id === 'pouchdb-adapter-memory'
  )
}

/**
 * onnxruntime-web's default export inlines `new URL("ort-wasm-simd-threaded.asyncify.wasm", import.meta.url)`, which
 * makes every bundler emit that file (ONNX Runtime's largest) although Sift loads ONNX Runtime's files from `wasmPaths`; this condition
 * selects its build without the inlined URL.
 */
const resolveConditions = ['onnxruntime-web-use-extern-wasm', ...defaultClientConditions]

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

/** The declarations reached from the entries (`src/index.ts`, `node.ts`, `vite.ts`, `ai.ts`, `react.ts`), keyed by their path relative to `src/`. */
function publicDeclarationFiles(root: string): Map<string, string> {
  const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic: ts.Diagnostic) => failOn([diagnostic]) }
  const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.build.json'), {}, host)!
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options })
  const emitted = new Map<string, string>()
  const result = program.emit(undefined, (fileName, text) =>
    emitted.set(relative(config.options.outDir!, fileName).split(sep).join('/'), text),
  )
  failOn([...ts.getPreEmitDiagnostics(program), ...result.diagnostics])
  const reached = new Map<string, string>()
  const pending = ENTRIES.map((entry) => `src/${entry}.d.ts`)
  for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
    if (reached.has(path.slice('src/'.length))) continue
    const text = emitted.get(path)
    if (text === undefined) throw new Error(`Public declarations: ${path} was not emitted.`)
    reached.set(path.slice('src/'.length), text)
    const { importedFiles, referencedFiles } = ts.preProcessFile(text, true, true)
    for (const { fileName: specifier } of [...importedFiles, ...referencedFiles]) {
      if (!specifier.startsWith('.')) continue
      const target = posix.join(posix.dirname(path), specifier)
      if (!target.startsWith('src/'))
        throw new Error(
          `Public declarations: ${path} imports ${specifier}, outside src/; the published types must not expose the engine.`,
        )
      pending.push(emitted.has(`${target}.d.ts`) ? `${target}.d.ts` : `${target}/index.d.ts`)
    }
  }
  return reached
}

function failOn(diagnostics: readonly ts.Diagnostic[]): void {
  if (diagnostics.length === 0) return
  throw new Error(
    ts.formatDiagnostics(diagnostics, {
      getCanonicalFileName: (name) => name,
      getCurrentDirectory: () => process.cwd(),
      getNewLine: () => '\n',
    }),
  )
}

/**
 * `code` with each match of `pattern` replaced by what `replacement` makes of it (undefined: left as it is), with its
 * source map; null when nothing changed, as a `renderChunk` hook returns it.
 */
function rewrittenChunk(
  code: string,
  pattern: RegExp,
  replacement: (match: RegExpMatchArray) => string | undefined,
): { code: string; map: ReturnType<MagicString['generateMap']> } | null {
  const edited = new MagicString(code)
  for (const match of code.matchAll(pattern)) {
    const replaced = replacement(match)
    if (replaced !== undefined) edited.overwrite(match.index!, match.index! + match[0].length, replaced)
  }
  return edited.hasChanged() ? { code: edited.toString(), map: edited.generateMap({ hires: true }) } : null
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
      return rewrittenChunk(code, viteIgnoredUrl, (match) => {
        const url = match[1] ?? match[2] ?? ''
        const relative = url.startsWith('.') || url.startsWith('/') ? url : `./${url}`
        return `new URL(${JSON.stringify(relative)}, import.meta.url)`
      })
    },
  }
}

/**
 * onnxruntime-web finds its own script with `new URL("ort.webgpu.min.mjs", import.meta.url)` when it runs from a
 * file: URL (Node); bundled into the model's worker that file no longer exists beside it, and an app's bundler would
 * warn that it cannot resolve it. The browser never takes that branch, so the URL is marked as resolved at run time.
 */
function runtimeResolvedOnnxRuntimeUrl(): Plugin {
  const selfUrl = /new URL\(("ort\.[\w.]+\.mjs"), import\.meta\.url\)/g
  return {
    name: 'sift:runtime-resolved-onnx-runtime-url',
    apply: 'build',
    renderChunk(code) {
      return rewrittenChunk(code, selfUrl, (match) => `new URL(/* @vite-ignore */ ${match[1]}, import.meta.url)`)
    },
  }
}

/** The tokenizers' encodings (gpt-tokenizer's rank tables, megabytes each), loaded only by a token budget. */
const TOKENIZER_DATA_CHUNK = /^(o200k_base|cl100k_base)-[\w-]+\.js$/

/** What only a token budget loads: the encodings' rank tables and the tokenizer.json reader (`tokenizers`). */
const TOKENIZER_NAME = /^(o200k_base|cl100k_base|tokenizers)-/

/**
 * The engine worker imports each tokenizer by URL, as a file of its own: an app's Vite bundles a worker as one
 * classic script by default (`worker.format: 'iife'`), which inlines every dynamic import, so each visitor would load
 * every encoding (megabytes) that only a token budget needs. Rewritten to
 * `import(/* @vite-ignore *\/ new URL("./o200k_base-….js", import.meta.url).href)`, the app's bundler (Vite, webpack,
 * Rollup) copies the file as an asset and leaves the import to run time. Such a file must import nothing itself: the
 * build fails if one does.
 */
function tokenizersByUrl(): Plugin {
  // At renderChunk the file names still hold the bundler's hash placeholders (`o200k_base-!~{003}~.js`).
  const dynamicImport = /\bimport\("\.\/([^"]+\.js)"\)/g
  return {
    name: 'sift:tokenizers-by-url',
    apply: 'build',
    renderChunk(code) {
      return rewrittenChunk(code, dynamicImport, (match) =>
        TOKENIZER_NAME.test(match[1])
          ? `import(/* @vite-ignore */ new URL(${JSON.stringify(`./${match[1]}`)}, import.meta.url).href)`
          : undefined,
      )
    },
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !TOKENIZER_NAME.test(posix.basename(chunk.fileName))) continue
        if (chunk.imports.length > 0 || chunk.dynamicImports.length > 0)
          throw new Error(
            `${chunk.fileName} imports ${[...chunk.imports, ...chunk.dynamicImports].join(', ')}: a tokenizer loaded by URL must import nothing.`,
          )
      }
    },
  }
}

/**
 * The tokenizers' encodings ship without source maps: a map of a data table helps no one debug, and would double
 * what they add to the package (BENCHMARKS.md, "The package in an app").
 */
function tokenizerDataWithoutMaps(): Plugin {
  return {
    name: 'sift:tokenizer-data-without-maps',
    async writeBundle(options, bundle) {
      const outDir = options.dir ?? 'dist'
      for (const fileName of Object.keys(bundle)) {
        if (!TOKENIZER_DATA_CHUNK.test(posix.basename(fileName))) continue
        const file = join(outDir, fileName)
        await rm(`${file}.map`, { force: true })
        await writeFile(file, (await readFile(file, 'utf8')).replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n'))
      }
    },
  }
}

/** Package folders whose modules a library build bundled, across the entries' build and the workers' builds. */
const bundledPackageDirs = new Set<string>()

/**
 * The library bundles other packages' code (see `isExternal`), so their licences ship with it:
 * `dist/THIRD_PARTY_LICENSES.md` names each bundled package and holds its licence and notice files. Every build
 * (the workers' too) records the packages it bundled; the entries' build, which finishes last, writes the file.
 */
function thirdPartyLicenses({ write }: { write: boolean }): Plugin {
  let outDir = ''
  return {
    name: 'sift:third-party-licenses',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir)
    },
    generateBundle(_, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue
        for (const id of Object.keys(chunk.modules)) {
          const match = /^(.*[\\/]node_modules[\\/](?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(id)
          if (match) bundledPackageDirs.add(match[1])
        }
      }
    },
    async writeBundle() {
      if (!write) return
      const sections: string[] = []
      for (const dir of bundledPackageDirs) {
        const { name, version, license } = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'))
        const files = (await readdir(dir)).filter((file) => /^(licen[cs]e|notice)(\.|$)/i.test(file)).sort()
        const texts = await Promise.all(
          files.map(
            async (file) => `${file}:\n\n\`\`\`\n${(await readFile(join(dir, file), 'utf8')).trim()}\n\`\`\`\n`,
          ),
        )
        sections.push(
          `## ${name} ${version} (${license})\n\n${texts.join('\n') || 'The package ships no licence file; its copyright notice is kept in the bundled code.\n'}`,
        )
      }
      const header =
        '# Third-party code bundled in sift-memory\n\nThe library build includes code of these packages.\n\n'
      await writeFile(join(outDir, 'THIRD_PARTY_LICENSES.md'), header + sections.sort().join('\n'))
    },
  }
}

export default defineConfig(({ mode }) => {
  if (mode === 'lib') {
    return {
      // Relative asset URLs: the worker file is found next to dist/index.js wherever the package is installed.
      base: './',
      publicDir: false,
      resolve: { conditions: resolveConditions },
      plugins: [
        bundlerVisibleWorkerUrl(),
        publicDeclarations(),
        thirdPartyLicenses({ write: true }),
        tokenizerDataWithoutMaps(),
      ],
      // The engine worker starts the model's worker: its URL needs the same rewrite inside the worker bundle.
      // Workers run in the browser only: transformers.js's web build is bundled into the model's worker.
      worker: {
        format: 'es',
        plugins: () => [
          bundlerVisibleWorkerUrl(),
          runtimeResolvedOnnxRuntimeUrl(),
          tokenizersByUrl(),
          thirdPartyLicenses({ write: false }),
          tokenizerDataWithoutMaps(),
        ],
      },
      build: {
        outDir: 'dist',
        emptyOutDir: true,
        target: 'es2022',
        minify: false,
        sourcemap: true,
        // `vite`: the app's Vite plugin (Node), its own entry so the browser entry never imports Node's built-ins;
        // `ai` and `react`: the integrations, their own entries so an app without the framework never loads them.
        lib: { entry: Object.fromEntries(ENTRIES.map((entry) => [entry, `src/${entry}.ts`])), formats: ['es'] },
        // The declarations' type check is most of the build's time, by design: not worth a warning every build.
        rolldownOptions: { external: isExternal, checks: { bundlerTimings: false } },
      },
    }
  }
  return {
    // The demo: index.html + demo/, with public/ (model, ONNX Runtime wasm) copied as-is.
    resolve: { conditions: resolveConditions },
    worker: { format: 'es' },
    build: { outDir: 'dist-demo', emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 4096 },
  }
})
