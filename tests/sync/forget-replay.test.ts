import { describe, expect, it } from 'vitest'
import { replayedForget } from '../../worker/sync/forget-replay'

/** What a device that was offline holds: messages of two conversations, said at 100 … 500. */
const here = [
  { id: 'trip-1', conversationId: 'trip', timestamp: 100 },
  { id: 'work-1', conversationId: 'work', timestamp: 200 },
  { id: 'trip-2', conversationId: 'trip', timestamp: 300 },
  { id: 'trip-3', conversationId: 'trip', timestamp: 500 },
  { id: 'work-2', conversationId: 'work', timestamp: 400 },
]

describe('a forget by scope made on another device, replayed on arrival', () => {
  it('removes what its scope held when it was made, and keeps what was said after it', () => {
    expect(replayedForget({ selector: { conversationId: 'trip' }, at: 300 }, here)).toEqual(['trip-1', 'trip-2'])
    expect(replayedForget({ selector: { before: 350 }, at: 1000 }, here)).toEqual(['trip-1', 'work-1', 'trip-2'])
    expect(replayedForget({ selector: { after: 250 }, at: 450 }, here)).toEqual(['trip-2', 'work-2'])
  })

  it('removes nothing outside its scope', () => {
    expect(replayedForget({ selector: { conversationId: 'nowhere' }, at: 1000 }, here)).toEqual([])
    expect(replayedForget({ selector: { before: 100 }, at: 1000 }, here)).toEqual([])
    expect(replayedForget({ selector: { after: 500 }, at: 1000 }, here)).toEqual([])
  })
})
