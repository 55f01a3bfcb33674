// The demo's scheduler for context builds: one call at a time, and the page always ends on the latest request.
import { describe, expect, it } from 'vitest'
import { latestWins, newestShown } from '../../demo/latest-wins'

/** A call the test finishes by hand, so calls overlap exactly as the test says. */
function deferredCalls() {
  const started: { params: number; finish(result: string): void; fail(error: Error): void }[] = []
  const run = (params: number) =>
    new Promise<string>((resolve, reject) => started.push({ params, finish: resolve, fail: reject }))
  return { started, run }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('latestWins', () => {
  it('runs one call at a time, skips the requests replaced while one ran, and shows results in order', async () => {
    const { started, run } = deferredCalls()
    const shown: [string, number][] = []
    const busy: boolean[] = []
    const request = latestWins(run, {
      show: (result, params) => shown.push([result, params]),
      fail: () => {},
      busy: (value) => busy.push(value),
    })
    request(1)
    for (const params of [2, 3, 4]) request(params)
    expect(started.map((call) => call.params)).toEqual([1])
    started[0].finish('one')
    await tick()
    expect(started.map((call) => call.params)).toEqual([1, 4])
    started[1].finish('four')
    await tick()
    expect(shown).toEqual([
      ['one', 1],
      ['four', 4],
    ])
    expect(busy).toEqual([true, false])
    request(5)
    expect(started.map((call) => call.params)).toEqual([1, 4, 5])
    started[2].finish('five')
    await tick()
    expect(busy).toEqual([true, false, true, false])
  })

  it('reports a failed call and goes on with the latest request', async () => {
    const { started, run } = deferredCalls()
    const failed: number[] = []
    const shown: number[] = []
    const request = latestWins(run, {
      show: (_, params) => shown.push(params),
      fail: (_, params) => failed.push(params),
      busy: () => {},
    })
    request(1)
    request(2)
    started[0].fail(new Error('boom'))
    await tick()
    started[1].finish('two')
    await tick()
    expect(failed).toEqual([1])
    expect(shown).toEqual([2])
  })
})

describe('newestShown', () => {
  it('shows only the newest call, even when an older one finishes after it', async () => {
    const { started, run } = deferredCalls()
    let asked = 0
    const shown: string[] = []
    const refresh = newestShown(
      () => run(++asked),
      (result) => shown.push(result),
    )
    const first = refresh()
    const second = refresh()
    started[1].finish('two messages')
    await second
    started[0].finish('one message')
    await first
    expect(shown).toEqual(['two messages'])
    const third = refresh()
    started[2].finish('three messages')
    await third
    expect(shown).toEqual(['two messages', 'three messages'])
  })

  it('passes a failed read to its own caller and still shows a later one', async () => {
    const { started, run } = deferredCalls()
    const shown: string[] = []
    const refresh = newestShown(
      () => run(0),
      (result) => shown.push(result),
    )
    const failing = refresh()
    started[0].fail(new Error('closed'))
    await expect(failing).rejects.toThrow('closed')
    const next = refresh()
    started[1].finish('back')
    await next
    expect(shown).toEqual(['back'])
  })
})
