import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { inputStamp, stampMatches } from '../../scripts/input-stamp'

describe('inputStamp', () => {
  let root: string
  let files: string[]

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'sift-input-stamp-'))
    files = ['table.json', 'build.ts'].map((name) => join(root, name))
    writeFileSync(files[0], 'x'.repeat(9 * 2 ** 20 + 3))
    writeFileSync(files[1], 'export const words = 20_000\n')
  })
  afterEach(() => rmSync(root, { recursive: true, force: true }))

  it('stays the same when the inputs are only touched, as a checkout or an install touches them', () => {
    const stamp = inputStamp(root, files)
    const later = new Date(Date.now() + 60_000)
    for (const file of files) utimesSync(file, later, later)
    expect(inputStamp(root, files)).toBe(stamp)
  })

  it('changes with any input’s content, including past the first chunk read, and with the inputs’ order', () => {
    const stamp = inputStamp(root, files)
    writeFileSync(files[0], `${'x'.repeat(9 * 2 ** 20 + 2)}y`)
    const edited = inputStamp(root, files)
    expect(edited).not.toBe(stamp)
    expect(inputStamp(root, [...files].reverse())).not.toBe(edited)
  })

  it('is the hash of each file’s path under the root and its content, as convert-model’s stamps were written', async () => {
    const { createHash } = await import('node:crypto')
    const { readFileSync } = await import('node:fs')
    const hash = createHash('sha256')
    for (const file of files) hash.update(file.slice(root.length)).update(readFileSync(file))
    expect(inputStamp(root, files)).toBe(hash.digest('hex'))
  })

  it('matches only the stamp written beside the output', () => {
    const stampPath = join(root, 'out.bin.stamp')
    const stamp = inputStamp(root, files)
    expect(stampMatches(stampPath, stamp)).toBe(false)
    writeFileSync(stampPath, stamp)
    expect(stampMatches(stampPath, stamp)).toBe(true)
    expect(stampMatches(stampPath, inputStamp(root, files.slice(1)))).toBe(false)
  })
})
