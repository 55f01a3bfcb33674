import { describe, expect, it } from 'vitest'
import { seededRandom } from '../../worker/util/seeded-random'
import { sentencesOf, toMessageRecord, type MessageRecord } from '../../worker/store/message-record'
import { SentenceCatalog } from '../../worker/index/sentence-catalog'

function history(count: number): MessageRecord[] {
  const random = seededRandom(5)
  let firstSid = 1
  return Array.from({ length: count }, (_, i) => {
    const sentences = 1 + Math.floor(random() * 3)
    const content = Array.from({ length: sentences }, (_, k) => `Message ${i} says thing ${k}.`).join(' ')
    const record = toMessageRecord(
      {
        id: `m${i}`,
        seq: i + 1,
        role: i % 2 ? 'assistant' : 'user',
        content,
        conversationId: `c${Math.floor(random() * 4)}`,
        timestamp: i,
      },
      firstSid,
    )
    firstSid += record.spans.length / 2
    return record
  })
}

/** The turn by definition: the message's position among its conversation's messages, by seq. */
function expectedTurns(records: readonly MessageRecord[]): Map<string, number> {
  const turns = new Map<string, number>()
  const seen = new Map<string, number>()
  for (const record of [...records].sort((a, b) => a.seq - b.seq)) {
    const turn = seen.get(record.conversationId) ?? 0
    turns.set(record.id, turn)
    seen.set(record.conversationId, turn + 1)
  }
  return turns
}

describe('SentenceCatalog', () => {
  it('gives every sentence its message’s turn in its conversation, after adds and after removals', () => {
    const records = history(120)
    const catalog = new SentenceCatalog()
    catalog.add(records.slice(0, 70))
    catalog.add(records.slice(70))
    const check = (kept: readonly MessageRecord[]) => {
      const turns = expectedTurns(kept)
      for (const record of kept)
        for (const sentence of sentencesOf(record)) expect(catalog.turnOf(sentence)).toBe(turns.get(record.id))
      expect(catalog.sentenceCount).toBe(kept.reduce((sum, r) => sum + r.spans.length / 2, 0))
      expect(catalog.messageCount).toBe(kept.length)
    }
    check(records)
    const gone = records.filter((_, i) => i % 3 === 0 || i === 119)
    catalog.remove(gone.map((r) => r.id))
    const kept = records.filter((r) => !gone.includes(r))
    check(kept)
    for (const record of gone)
      for (const sentence of sentencesOf(record)) expect(catalog.get(sentence.sid)).toBeUndefined()
    // A sentence the catalog does not hold gets the turn its seq would have.
    const stranger = { ...sentencesOf(records[0])[0], sid: 10_000 }
    expect(catalog.turnOf(stranger)).toBe(0)
  })
})

describe('SentenceCatalog scope roles', () => {
  it('counts each scope’s messages by role, after adds and after removals', () => {
    const records = history(60)
    const catalog = new SentenceCatalog()
    catalog.add(records)
    catalog.remove(['m3', 'm10', 'm11', 'm40'])
    const kept = records.filter((r) => !['m3', 'm10', 'm11', 'm40'].includes(r.id))
    const countRoles = (list: readonly MessageRecord[]) => {
      const roles = new Map<string, number>()
      for (const r of list) roles.set(r.role, (roles.get(r.role) ?? 0) + 1)
      return roles
    }
    expect(catalog.scope().roles).toEqual(countRoles(kept))
    for (const conversationId of ['c0', 'c1', 'c2', 'c3']) {
      expect(catalog.scope(conversationId).roles).toEqual(
        countRoles(kept.filter((r) => r.conversationId === conversationId)),
      )
    }
    expect(catalog.scope('nowhere').roles).toEqual(new Map())
  })
})
