import { describe, expect, it } from 'vitest'
import { replayedForget } from '../../worker/sync/forget-replay'

/**
 * What a device that was offline holds: messages of two conversations, said at 100 … 500 and stored in the synced
 * memory (`addedAt`) as they were said, except `trip-old`: an old message imported at 900, after the forgets below.
 */
const here = [
  { id: 'trip-1', conversationId: 'trip', timestamp: 100, addedAt: 100 },
  { id: 'work-1', conversationId: 'work', timestamp: 200, addedAt: 200 },
  { id: 'trip-2', conversationId: 'trip', timestamp: 300, addedAt: 300 },
  { id: 'trip-3', conversationId: 'trip', timestamp: 500, addedAt: 500 },
  { id: 'work-2', conversationId: 'work', timestamp: 400, addedAt: 400 },
  { id: 'trip-old', conversationId: 'trip', timestamp: 50, addedAt: 900 },
]

describe('a forget by scope made on another device, replayed on arrival', () => {
  it('removes what its scope held when it was made, and keeps what was stored after it', () => {
    expect(replayedForget({ selector: { conversationId: 'trip' }, at: 300 }, here)).toEqual(['trip-1', 'trip-2'])
    expect(replayedForget({ selector: { before: 350 }, at: 800 }, here)).toEqual(['trip-1', 'work-1', 'trip-2'])
    expect(replayedForget({ selector: { after: 250 }, at: 450 }, here)).toEqual(['trip-2', 'work-2'])
  })

  it('keeps a message imported after the forget, however old it is', () => {
    expect(replayedForget({ selector: { conversationId: 'trip' }, at: 800 }, here)).not.toContain('trip-old')
    expect(replayedForget({ selector: { before: 350 }, at: 800 }, here)).not.toContain('trip-old')
    expect(replayedForget({ selector: { conversationId: 'trip' }, at: 1000 }, here)).toContain('trip-old')
  })

  it('removes nothing outside its scope', () => {
    expect(replayedForget({ selector: { conversationId: 'nowhere' }, at: 1000 }, here)).toEqual([])
    expect(replayedForget({ selector: { before: 100 }, at: 1000 }, here)).toEqual(['trip-old'])
    expect(replayedForget({ selector: { after: 500 }, at: 1000 }, here)).toEqual([])
  })
})
