// The failure record of the background work on its own: the latest failure kept, each one reported when it happens
// with the sentences a drain had stored, as the SiftError it was recorded as.
import { describe, expect, it } from 'vitest'
import { SiftError } from '../../src/errors'
import type { BackgroundFailure } from '../../src/types'
import { FailureRecord } from '../../worker/engine/background-failure'

describe('FailureRecord', () => {
  it('keeps the latest failure, reports each one with the done count, and returns it as the SiftError recorded', () => {
    const reports: { done: number; failure: BackgroundFailure }[] = []
    const record = new FailureRecord((done, failure) => reports.push({ done, failure }))
    expect(record.last).toBeUndefined()

    const before = Date.now()
    const modelError = record.failed('embed', new Error('session ended'), 128)
    expect(modelError).toBeInstanceOf(SiftError)
    expect(modelError.code).toBe('MODEL_UNAVAILABLE')
    expect(record.last).toEqual({
      task: 'embed',
      code: 'MODEL_UNAVAILABLE',
      message: modelError.message,
      at: expect.any(Number),
    })
    expect(record.last!.at).toBeGreaterThanOrEqual(before)
    expect(record.last!.at).toBeLessThanOrEqual(Date.now())

    const full = new SiftError('QUOTA_EXCEEDED', 'The storage is full.')
    expect(record.failed('store-vectors', full)).toBe(full)
    expect(record.last).toMatchObject({
      task: 'store-vectors',
      code: 'QUOTA_EXCEEDED',
      message: 'The storage is full.',
    })
    expect(reports.map(({ done, failure }) => [done, failure.task])).toEqual([
      [128, 'embed'],
      [0, 'store-vectors'],
    ])
    expect(reports[1].failure).toBe(record.last)
  })

  it('attempt resolves whether the work fails or not, and records only a failure', async () => {
    const reports: BackgroundFailure[] = []
    const record = new FailureRecord((_, failure) => reports.push(failure))
    await record.attempt('save-coarse-lists', Promise.resolve())
    expect(reports).toEqual([])
    await record.attempt('save-lexical-snapshot', Promise.reject(new Error('refused')))
    expect(record.last).toMatchObject({ task: 'save-lexical-snapshot', code: 'INTERNAL' })
    expect(reports).toEqual([record.last])
  })
})
