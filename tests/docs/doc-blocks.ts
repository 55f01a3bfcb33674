// The TypeScript blocks of the guides (README.md and docs/*.md), type-checked against the library's own sources as an
// app imports them (`sift-memory`, `sift-memory/ai`…, mapped by package.json's "exports"): a wrong option name, a
// method that does not exist or a type that moved fails tests/docs/guides-compile.test.ts.
//
// Each ```ts or ```tsx block is a module of its own. An HTML comment on the line(s) just before a block's fence (blank
// lines between are allowed) says more about it:
// - `<!-- file: src/chat-turn.ts -->` names the block's module, so that a later block of the same page can import it
//   (`from './chat-turn'`); a block without a name is `src/block-<line>.ts`.
// - `<!-- not-checked: reason -->` leaves the block out, for a reason the test prints: for a block that is not code
//   an app could write (a shape with `…` in it). Prefer a block that compiles.
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import ts from 'typescript'

export const root = join(import.meta.dirname, '..', '..')

/** One fenced block of a guide. */
export interface DocBlock {
  /** The guide, relative to the repository root. */
  page: string
  /** The line of the opening fence, 1-based. */
  line: number
  lang: 'ts' | 'tsx'
  code: string
  /** The module path the block is checked as, relative to its page's folder of modules. */
  file: string
  /** Set by `<!-- not-checked: reason -->`. */
  notChecked?: string
}

const FENCE = /^\s*```(ts|tsx|typescript)\s*$/
const CLOSE = /^\s*```\s*$/
const MARK = /^\s*<!--\s*(file|not-checked):\s*(.*?)\s*-->\s*$/

/** The TypeScript blocks of a Markdown text, with what the comments before them say. */
export function docBlocks(page: string, markdown: string): DocBlock[] {
  const lines = markdown.split('\n')
  const blocks: DocBlock[] = []
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i])
    if (!open) continue
    let end = i + 1
    while (end < lines.length && !CLOSE.test(lines[end])) end++
    if (end === lines.length) throw new Error(`${page}:${i + 1}: a \`\`\`${open[1]} block that never closes`)
    const lang = open[1] === 'tsx' ? 'tsx' : 'ts'
    const marks = new Map<string, string>()
    for (let j = i - 1; j >= 0 && (lines[j].trim() === '' || MARK.test(lines[j])); j--) {
      const mark = MARK.exec(lines[j])
      if (mark) marks.set(mark[1], mark[2])
    }
    const notChecked = marks.get('not-checked')
    if (notChecked === '') throw new Error(`${page}:${i + 1}: <!-- not-checked: … --> needs its reason`)
    blocks.push({
      page,
      line: i + 1,
      lang,
      code: lines.slice(i + 1, end).join('\n'),
      file: marks.get('file') ?? `src/block-${i + 1}.${lang}`,
      ...(notChecked !== undefined && { notChecked }),
    })
    i = end
  }
  return blocks
}

/** `sift-memory` and each `sift-memory/<entry>` of package.json's "exports", as the source file it is built from. */
export function entryPaths(): Record<string, string[]> {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    name: string
    exports: Record<string, { import: string }>
  }
  const paths: Record<string, string[]> = {}
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    const source = join(root, target.import.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'))
    if (!existsSync(source)) throw new Error(`package.json exports ${subpath} as ${target.import}: no ${source}`)
    paths[subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`] = [source]
  }
  return paths
}

/** Where a block's module lies (a path no file has: the compiler host serves it). */
export function blockPath(block: DocBlock): string {
  return join(root, '.cache', 'doc-blocks', block.page.replace(/[/.]/g, '-'), block.file)
}

/**
 * Type-checks `blocks` together (each page's blocks can import one another by their `file`), with the repository's
 * compiler options, and returns each checked block's errors as `page:line: message`, the line being the guide's.
 */
export function checkBlocks(blocks: DocBlock[]): Map<DocBlock, string[]> {
  const checked = blocks.filter((block) => block.notChecked === undefined)
  const modules = new Map(checked.map((block) => [blockPath(block), block]))
  const config = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile)
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root)
  const compilerOptions: ts.CompilerOptions = {
    ...options,
    noEmit: true,
    jsx: ts.JsxEmit.ReactJSX,
    // A block is a module even without an import: top-level await works, and blocks share no global scope.
    moduleDetection: ts.ModuleDetectionKind.Force,
    paths: entryPaths(),
  }
  const host = ts.createCompilerHost(compilerOptions)
  const { fileExists, directoryExists, readFile, getSourceFile } = host
  const folders = new Set([...modules.keys()].flatMap((file) => ancestors(file)))
  host.fileExists = (file) => modules.has(file) || fileExists(file)
  host.directoryExists = (folder) => folders.has(folder) || (directoryExists?.(folder) ?? true)
  host.readFile = (file) => modules.get(file)?.code ?? readFile(file)
  host.getSourceFile = (file, language, ...rest) => {
    const block = modules.get(file)
    return block ? ts.createSourceFile(file, block.code, language, true) : getSourceFile(file, language, ...rest)
  }
  const program = ts.createProgram([...modules.keys()], compilerOptions, host)
  const errors = new Map<DocBlock, string[]>()
  for (const [file, block] of modules) {
    const source = program.getSourceFile(file)
    if (!source) throw new Error(`${block.page}:${block.line}: ${relative(root, file)} was not read`)
    const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]
    errors.set(
      block,
      diagnostics.map((diagnostic) => {
        const { line } = source.getLineAndCharacterOfPosition(diagnostic.start ?? 0)
        return `${block.page}:${block.line + 1 + line}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`
      }),
    )
  }
  return errors
}

/** The folders above `file`, up to the repository root. */
function ancestors(file: string): string[] {
  const folders: string[] = []
  for (let folder = dirname(file); folder.startsWith(root) && folder !== root; folder = dirname(folder))
    folders.push(folder)
  return folders
}
