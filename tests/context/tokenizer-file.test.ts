// A token budget's tokenizer.json is a path or URL the app passes (perhaps from its user): when the file is not a
// tokenizer, the error says what failed without any of the file's bytes, so that an error message is never a way to
// read a file.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { IDBFactory } from 'fake-indexeddb'
import { afterAll, describe, expect, it } from 'vitest'
import { createMemory } from '../../src/node'
import { TokenCounters } from '../../worker/context/token-counter'

const root = mkdtempSync(join(tmpdir(), 'sift-tokenizer-file-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const files = {
  'passwd-like': 'root:x:0:0:SECRET-BYTES:/root:/bin/bash\n',
  'short text': 'SECRET',
  'JSON, not a tokenizer': '{"model":{"type":"SECRET-TYPE","vocab":{"SECRET-WORD":0}}}',
}
const secrets = ['root', 'SECRET', 'x:0:0']

function bytesOf(text: string): ArrayBuffer {
  return new TextEncoder().encode(text).buffer as ArrayBuffer
}

function refusalOf(call: Promise<unknown>): Promise<{ code?: string; message: string; cause?: unknown }> {
  return call.then(
    () => expect.unreachable('the tokenizer was accepted'),
    (error) => error,
  )
}

function assertNoBytes(error: { message: string; cause?: unknown }): void {
  const said = `${error.message} ${error.cause instanceof Error ? error.cause.message : ''}`
  for (const secret of secrets) expect(said).not.toContain(secret)
}

describe('a tokenizer file that is not a tokenizer.json', () => {
  it('is MODEL_UNAVAILABLE naming its path, its size and what it is not, with none of its bytes', async () => {
    for (const [kind, text] of Object.entries(files)) {
      const counters = new TokenCounters(async () => bytesOf(text))
      const error = await refusalOf(counters.counter('/srv/app/tokenizer.json'))
      expect(error.code, kind).toBe('MODEL_UNAVAILABLE')
      expect(error.message, kind).toContain('"/srv/app/tokenizer.json"')
      expect(error.message, kind).toContain(`${new TextEncoder().encode(text).length} bytes`)
      expect(error.message, kind).toContain(
        kind.startsWith('JSON') ? 'is JSON but not a tokenizer.json' : 'is not valid JSON',
      )
      assertNoBytes(error)
    }
  })

  it('keeps the reading error of a file that cannot be read', async () => {
    const counters = new TokenCounters(async () => {
      throw new Error('ENOENT: no such file or directory')
    })
    const error = await refusalOf(counters.counter('missing/tokenizer.json'))
    expect(error).toMatchObject({ code: 'MODEL_UNAVAILABLE', message: expect.stringContaining('ENOENT') })
    expect(error.message).toContain('"missing/tokenizer.json"')
  })

  it('in Node, a file named by its path: the buildContext error holds none of its bytes', async () => {
    const memory = await createMemory({ name: 'tokenizer-file', indexedDB: new IDBFactory(), requireModelFiles: false })
    await memory.add({ role: 'user', content: 'hello there' })
    for (const [kind, text] of Object.entries(files)) {
      const path = join(root, `${kind}.txt`)
      writeFileSync(path, text)
      const error = await refusalOf(memory.buildContext('hello', { budget: { tokens: 50, tokenizer: path } }))
      expect(error.code, kind).toBe('MODEL_UNAVAILABLE')
      expect(error.message, kind).toContain(path)
      assertNoBytes(error)
    }
    await memory.close()
  })
})
