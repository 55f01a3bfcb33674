// Node memories over fake-indexeddb for a test file: each opened on a database of its own (or a given one, to reopen
// it), and all closed after each test.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { afterEach } from 'vitest'
import { createMemory, type Memory, type NodeMemoryOptions } from '../../src/node'

/** Registers the closing after each test, and returns the opener. */
export function nodeMemories() {
  const opened: Memory[] = []
  afterEach(async () => {
    for (const memory of opened.splice(0)) await memory.close()
  })
  return async function open(name: string, indexedDB = new IDBFactory(), extra: Partial<NodeMemoryOptions> = {}) {
    const memory = await createMemory({
      name,
      indexedDB,
      IDBKeyRange: IDBKeyRange as unknown as typeof globalThis.IDBKeyRange,
      ...extra,
    })
    opened.push(memory)
    return { memory, indexedDB }
  }
}
