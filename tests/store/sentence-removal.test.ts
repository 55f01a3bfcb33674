import { describe, expect, it } from 'vitest'
import { toMessageRecord } from '../../worker/store/message-record'
import { withoutSentences } from '../../worker/store/sentence-removal'

const record = toMessageRecord(
  {
    id: 'm',
    seq: 1,
    role: 'user',
    content: 'One here. Two there. Three now. Four later.',
    conversationId: 'c',
    timestamp: 1,
  },
  10,
)
const span = (r: typeof record, slot: number) => ({ start: r.spans[2 * slot], end: r.spans[2 * slot + 1] })

describe('withoutSentences', () => {
  it('leaves the same text whether the last sentences are removed together or one by one', () => {
    const together = withoutSentences(record, [span(record, 2), span(record, 3)]).record!
    const first = withoutSentences(record, [span(record, 2)]).record!
    const oneByOne = withoutSentences(first, [span(first, 3)]).record!
    expect(together.content).toBe('One here. Two there.')
    expect(oneByOne.content).toBe(together.content)
    expect(withoutSentences(record, [span(record, 0), span(record, 1)]).record!.content).toBe('Three now. Four later.')
  })
})
