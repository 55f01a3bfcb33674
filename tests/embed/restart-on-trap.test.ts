import { describe, expect, it } from 'vitest'
import { revivedError, serializedError } from '../../src/error-transfer'
import { SiftError } from '../../src/errors'
import { modelLoadFailure } from '../../worker/embed/model-load-failure'
import type { ModelRunner } from '../../worker/embed/model-runner'
import { restartingOnTrap } from '../../worker/embed/restart-on-trap'
import { wasmTrapIn } from '../../worker/embed/wasm-trap'

/** `(module (memory 1) (func (export "read") (param i32) (result i32) local.get 0 i32.load))`: one page of 64 KiB. */
const READ_MODULE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x06, 0x01, 0x60, 0x01, 0x7f, 0x01, 0x7f, 0x03, 0x02, 0x01,
  0x00, 0x05, 0x03, 0x01, 0x00, 0x01, 0x07, 0x08, 0x01, 0x04, 0x72, 0x65, 0x61, 0x64, 0x00, 0x00, 0x0a, 0x09, 0x01,
  0x07, 0x00, 0x20, 0x00, 0x28, 0x02, 0x00, 0x0b,
])

/** A real WebAssembly instance's `read`: an address past its one page traps with a RuntimeError, as ONNX Runtime's did. */
function wasmRead(): (address: number) => number {
  const instance = new WebAssembly.Instance(new WebAssembly.Module(READ_MODULE))
  return instance.exports.read as (address: number) => number
}

/** The trap itself, as the engine's thread catches it. */
function realTrap(): Error {
  try {
    wasmRead()(1 << 20)
  } catch (error) {
    return error as Error
  }
  throw new Error('the read past the memory did not trap')
}

/** What crossing a worker boundary leaves of a thrown value (the model worker's comlink channel). */
const acrossWorker = (thrown: unknown): Error => revivedError(structuredClone(serializedError(thrown)))

/**
 * Runners that each read through a WebAssembly instance of their own, at the address the next entry of `addresses`
 * gives (0 reads, past the page traps), one entry per runner started; and what became of each.
 */
function runnersReading(addresses: number[]) {
  const started: { discarded: boolean; disposed: boolean; calls: number }[] = []
  const start = (): ModelRunner => {
    const read = wasmRead()
    const address = addresses[started.length] ?? 0
    const state = { discarded: false, disposed: false, calls: 0 }
    started.push(state)
    const work = () => {
      state.calls++
      // The trap crosses the model worker's channel, as modelInWorker's calls do.
      try {
        return read(address)
      } catch (error) {
        throw acrossWorker(error)
      }
    }
    return {
      load: async () => {
        work()
        return { backend: 'wasm', failures: [] }
      },
      run: async (texts) => {
        work()
        return { data: new Float32Array(texts.length), dim: 1, ranOn: { backend: 'wasm', failures: [] } }
      },
      dispose: async () => {
        state.disposed = true
      },
      discard: () => {
        state.discarded = true
      },
    }
  }
  return { start, started }
}

describe('a WebAssembly trap', () => {
  it('is found in a real RuntimeError, across a worker boundary, and as the cause of a load failure that crossed it', () => {
    const trap = realTrap()
    expect(trap).toBeInstanceOf(WebAssembly.RuntimeError)
    expect(wasmTrapIn(trap)).toBe(trap.message)
    expect(wasmTrapIn(acrossWorker(trap))).toBe(trap.message)
    const failure = modelLoadFailure(
      { model: 'use-lite', localModelPath: '/models/', allowRemoteModels: false },
      [`wasm: ${trap.message}`],
      trap,
    )
    const arrived = acrossWorker(failure)
    expect(arrived).toBeInstanceOf(SiftError)
    expect(wasmTrapIn(arrived)).toBe(trap.message)
    expect(arrived.message).toMatch(/trapped while loading it/)
    expect(arrived.message).not.toMatch(/Serve the model's folder/)
  })

  it('is not any other failure', () => {
    expect(wasmTrapIn(new TypeError('x is not a function'))).toBeUndefined()
    expect(wasmTrapIn(new RangeError('Out of memory'))).toBeUndefined()
    expect(wasmTrapIn('Out of bounds memory access')).toBeUndefined()
    const failure = modelLoadFailure({ model: 'use-lite', localModelPath: '/models/', allowRemoteModels: false }, [
      'wasm: 404',
    ])
    expect(wasmTrapIn(acrossWorker(failure))).toBeUndefined()
  })
})

describe('restartingOnTrap', () => {
  it('replaces a runner whose run trapped and runs the call again on the fresh one, saying why it reloaded', async () => {
    const { start, started } = runnersReading([1 << 20, 0])
    const runner = restartingOnTrap(start)
    const result = await runner.run(['a', 'b'])
    expect(result.data).toHaveLength(2)
    expect(result.ranOn.failures).toEqual([expect.stringMatching(/^wasm: trapped \(.+\), the model was reloaded$/)])
    expect(started).toMatchObject([
      { discarded: true, calls: 1 },
      { discarded: false, calls: 1 },
    ])
    // Later calls go to the fresh runner; nothing else is started.
    await runner.run(['c'])
    expect(started).toHaveLength(2)
    expect(started[1].calls).toBe(2)
    expect((await runner.load()).failures).toHaveLength(1)
  })

  it('reloads after a load that trapped', async () => {
    const { start, started } = runnersReading([1 << 20, 0])
    const loaded = await restartingOnTrap(start).load()
    expect(loaded.backend).toBe('wasm')
    expect(started.map((runner) => runner.discarded)).toEqual([true, false])
  })

  it('rejects with MODEL_UNAVAILABLE after a second trap in a row, and the call after it starts afresh', async () => {
    const { start, started } = runnersReading([1 << 20, 1 << 20, 0])
    const runner = restartingOnTrap(start)
    await expect(runner.run(['a'])).rejects.toMatchObject({
      code: 'MODEL_UNAVAILABLE',
      message: expect.stringMatching(/trapped twice in a row/),
    })
    expect(started.map((runner) => runner.discarded)).toEqual([true, true, false])
    expect((await runner.run(['a'])).data).toHaveLength(1)
    expect(started).toHaveLength(3)
  })

  it('passes any other failure on without replacing the runner', async () => {
    let starts = 0
    const runner = restartingOnTrap(() => {
      starts++
      return {
        load: async () => {
          throw new SiftError('MODEL_UNAVAILABLE', 'Could not load the embedding model.')
        },
        run: async () => {
          throw new Error('a failed run')
        },
        dispose: async () => undefined,
      }
    })
    await expect(runner.load()).rejects.toMatchObject({ code: 'MODEL_UNAVAILABLE' })
    await expect(runner.run(['a'])).rejects.toThrow('a failed run')
    expect(starts).toBe(1)
  })

  it('replaces a runner once when calls in flight on it trap together', async () => {
    const { start, started } = runnersReading([1 << 20, 0])
    const runner = restartingOnTrap(start)
    await Promise.all([runner.run(['a']), runner.run(['b']), runner.run(['c'])])
    expect(started).toHaveLength(2)
  })
})
