// The React hook's memory (src/react/shared-memory.ts): every method forwarded, bound to the memory, and those that
// change its contents (CHANGES_CONTENTS, src/protocol.ts) announced once they resolve, so every component reads again.
import { describe, expect, it } from 'vitest'
import { CHANGES_CONTENTS, RELAYED_METHODS } from '../../src/protocol'
import { announcingChanges } from '../../src/react/shared-memory'
import type { Memory } from '../../src/types'

const EVERY_METHOD = [...RELAYED_METHODS, 'close'] as const

/**
 * A memory whose every method records its name, its arguments and whether it was called on the memory, and resolves
 * with its name, or rejects when it is `failing`.
 */
function recordingMemory(calls: string[], failing?: string): Memory {
  const memory: Record<string, unknown> = {}
  for (const method of EVERY_METHOD)
    memory[method] = async function (this: unknown, ...args: unknown[]) {
      calls.push(`${method}(${args.join(',')})${this === memory ? '' : ' unbound'}`)
      if (method === failing) throw new Error(`${method} failed`)
      return method
    }
  return memory as unknown as Memory
}

describe('announcingChanges', () => {
  it('forwards every method with its arguments, and announces exactly those that change the contents', async () => {
    const calls: string[] = []
    let announced = 0
    const announcing = announcingChanges(recordingMemory(calls), () => announced++)
    expect(Object.keys(announcing).sort()).toEqual([...EVERY_METHOD].sort())
    for (const method of EVERY_METHOD) {
      const before = announced
      const call = announcing[method] as (...args: unknown[]) => Promise<unknown>
      await expect(call('a', 2)).resolves.toBe(method)
      expect(calls.at(-1)).toBe(`${method}(a,2)`)
      expect(announced - before, method).toBe(method !== 'close' && CHANGES_CONTENTS[method] ? 1 : 0)
    }
    // The methods that announced: the writes of the hook's memory before the list drove it.
    expect(RELAYED_METHODS.filter((method) => CHANGES_CONTENTS[method]).sort()).toEqual(
      ['add', 'clear', 'clearSummary', 'forget', 'import', 'pin', 'setSummary', 'synced', 'unpin'].sort(),
    )
  })

  it('announces nothing when a change fails', async () => {
    let announced = 0
    const announcing = announcingChanges(recordingMemory([], 'add'), () => announced++)
    await expect(announcing.add({ role: 'user', content: 'x' })).rejects.toThrow('add failed')
    expect(announced).toBe(0)
  })
})
