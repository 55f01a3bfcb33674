// WorkerMemory forwards every Memory method to its engine: those it only forwards are made from RELAYED_METHODS
// (src/protocol.ts), so a method added there reaches the engine without code of its own in src/memory.ts.
import { describe, expect, it } from 'vitest'
import { WorkerMemory, type EngineConnection } from '../../src/memory'
import { RELAYED_METHODS } from '../../src/protocol'
import type { MemoryStats } from '../../src/types'

/** A connection whose engine records each call and answers with the method's name (`stats` with a stats object). */
function recordingConnection(calls: string[]): EngineConnection {
  const remote: Record<string, (...args: unknown[]) => Promise<unknown>> = {}
  for (const method of [...RELAYED_METHODS, 'close']) {
    remote[method] = async (...args: unknown[]) => {
      calls.push(`${method}(${args.map((arg) => JSON.stringify(arg)).join(',')})`)
      return method === 'stats' ? ({ messages: 0, storage: { persisted: true } } as Partial<MemoryStats>) : method
    }
  }
  return { remote: remote as never, ended: new Promise(() => undefined), terminate: () => undefined }
}

describe('WorkerMemory', () => {
  it('forwards every method with its arguments and answers with what the engine answered', async () => {
    const calls: string[] = []
    const keys: unknown[] = []
    const memory = new WorkerMemory(
      recordingConnection(calls),
      () => Promise.reject(new Error('no restart expected')),
      (next) => keys.push(next),
    )
    memory.evicted = false
    for (const method of RELAYED_METHODS) {
      const call = memory[method] as (...args: unknown[]) => Promise<unknown>
      const answer = await call.call(memory, 'a', 2)
      // changeKey and stats are the class's own: changeKey takes one argument, stats none.
      const forwarded = method === 'changeKey' ? '"a"' : method === 'stats' ? '' : '"a",2'
      expect(calls.at(-1), method).toBe(`${method}(${forwarded})`)
      if (method === 'stats') expect(answer).toEqual({ messages: 0, storage: { persisted: true, evicted: false } })
      else if (method === 'changeKey') expect(answer).toBeUndefined()
      else expect(answer).toBe(method)
    }
    expect(keys).toEqual(['a'])
    await memory.close()
    expect(calls.at(-1)).toBe('close()')
    await expect(memory.add({ role: 'user', content: 'x' })).rejects.toMatchObject({ code: 'CLOSED' })
  })
})
