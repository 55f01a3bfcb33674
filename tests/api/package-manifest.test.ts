// What the published package.json promises an app: no script that runs on install, and one runtime dependency,
// onnxruntime-web, whose wasm files must be those of the ONNX Runtime JavaScript the library build bundles (it comes
// in through transformers.js).
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')
const readJson = (path: string) => JSON.parse(readFileSync(join(root, path), 'utf8'))
const manifest = readJson('package.json')

describe('package.json', () => {
  it('runs nothing when an app or this repository installs it', () => {
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare'])
      expect(manifest.scripts).not.toHaveProperty(hook)
  })

  it('depends on the onnxruntime-web version transformers.js is bundled with, and nothing else at run time', () => {
    const transformers = readJson('node_modules/@huggingface/transformers/package.json')
    expect(manifest.dependencies).toEqual({ 'onnxruntime-web': transformers.dependencies['onnxruntime-web'] })
    // One copy in this repository: the build bundles the JavaScript and sift-memory/vite serves the wasm of the same one.
    expect(existsSync(join(root, 'node_modules/@huggingface/transformers/node_modules/onnxruntime-web'))).toBe(false)
    expect(readJson('node_modules/onnxruntime-web/package.json').version).toBe(manifest.dependencies['onnxruntime-web'])
  })

  it('leaves transformers.js to Node apps, as an optional peer dependency', () => {
    expect(manifest.peerDependencies['@huggingface/transformers']).toBeDefined()
    expect(manifest.peerDependenciesMeta['@huggingface/transformers']).toEqual({ optional: true })
  })

  it('sets up the model before every script that loads it, as test and demo do (a fresh clone has no public/models/)', () => {
    for (const script of ['context', 'bench:recall', 'bench:perf', 'bench:soak'])
      expect(manifest.scripts[script]).toMatch(/^tsx scripts\/setup\.ts && /)
  })
})
