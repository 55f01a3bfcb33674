import { describe, expect, it } from 'vitest'
import { seededRandom } from '../../worker/util/seeded-random'
import { indexTerms, words } from '../../worker/text/text-analysis'
import { Bm25Index, type FieldTerms } from '../../worker/index/lexical/bm25-index'
import { LEXICAL_TUNING } from '../../worker/index/lexical/lexical-tuning'

interface Doc {
  key: number
  group: number
  fields: [string, string]
}

/** A field as the lexical index hands it over: its English terms, and its distinct words as its length. */
function fieldTerms(text: string): FieldTerms {
  return { terms: indexTerms(text, 'en'), length: new Set(words(text)).size }
}

/**
 * BM25+ written out plainly from its definition, over the live documents (MiniSearch's formula and defaults; a
 * field's length its distinct words plus the length offset).
 */
function referenceScores(docs: readonly Doc[], terms: readonly string[], group?: number): Map<number, number> {
  const k1 = 1.2
  const b = 0.7
  const d = 0.5
  const analyzed = docs.map((doc) =>
    doc.fields.map((text) => {
      const tf = new Map<string, number>()
      for (const term of indexTerms(text, 'en')) tf.set(term, (tf.get(term) ?? 0) + 1)
      return { length: new Set(words(text)).size + LEXICAL_TUNING.bm25LengthOffset, tf }
    }),
  )
  const n = docs.length
  const scores = new Map<number, number>()
  docs.forEach((doc, i) => {
    if (group !== undefined && doc.group !== group) return
    let score = 0
    const matched = new Set<string>()
    for (const term of terms) {
      for (let f = 0; f < 2; f++) {
        const tf = analyzed[i][f].tf.get(term) ?? 0
        if (tf === 0) continue
        matched.add(term)
        const df = analyzed.filter((a) => a[f].tf.has(term)).length
        const avg = analyzed.reduce((sum, a) => sum + a[f].length, 0) / n
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5))
        score += idf * (d + (tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * analyzed[i][f].length) / avg)))
      }
    }
    if (matched.size > 0) scores.set(doc.key, score * matched.size)
  })
  return scores
}

function corpus(count: number, seed = 7): Doc[] {
  const words = [
    'zebra',
    'zebras',
    'painting',
    'painted',
    'lake',
    'the',
    'a',
    'quiet',
    'harbour',
    'lantern',
    'meadow',
    'glacier',
    'Orchard',
    'canyon',
    'running',
  ]
  const random = seededRandom(seed)
  const next = (n: number) => Math.floor(random() * n)
  return Array.from({ length: count }, (_, i) => {
    const length = 1 + next(12)
    const text = `${Array.from({ length }, () => words[next(words.length)]).join(' ')}${next(2) ? '.' : ''}`
    return { key: i * 3 + 1, group: next(3), fields: [text, next(2) ? 'Melanie' : 'Caroline'] }
  })
}

function expectScores(index: Bm25Index, docs: readonly Doc[], terms: readonly string[], group?: number): void {
  const { keys, scores, count } = index.match(terms, group)
  const actual = new Map<number, number>()
  for (let i = 0; i < count; i++) actual.set(keys[i], scores[i])
  const expected = referenceScores(docs, terms, group)
  expect([...actual.keys()].sort((x, y) => x - y)).toEqual([...expected.keys()].sort((x, y) => x - y))
  for (const [key, score] of expected) expect(actual.get(key)).toBeCloseTo(score, 10)
}

const queries: string[][] = [
  ['zebra'],
  ['paint', 'lake'],
  ['paint', 'paint', 'melanie'],
  ['glacier', 'orchard', 'canyon', 'run'],
  ['the'],
  ['absent'],
]

function indexOf(docs: readonly Doc[]): Bm25Index {
  const index = new Bm25Index(2)
  for (const doc of docs) index.add(doc.key, doc.group, doc.fields.map(fieldTerms))
  return index
}

describe('Bm25Index', () => {
  it('scores every matching document as the reference BM25+ does, with and without a group filter', () => {
    const docs = corpus(300)
    const index = indexOf(docs)
    expect(index.size).toBe(300)
    for (const terms of queries) {
      expectScores(index, docs, terms)
      expectScores(index, docs, terms, 1)
    }
  })

  it('scores only live documents after removals, before and after compaction, and replaces a re-added key', () => {
    const docs = corpus(400)
    const index = indexOf(docs)
    const removed = docs.filter((_, i) => i % 9 === 4)
    for (const doc of removed) expect(index.remove(doc.key)).toBe(true)
    expect(index.remove(removed[0].key)).toBe(false)
    let live = docs.filter((doc) => !removed.includes(doc))
    expect(index.size).toBe(live.length)
    for (const terms of queries) expectScores(index, live, terms)
    index.compact()
    for (const terms of queries) expectScores(index, live, terms, 2)
    const replaced: Doc = { ...live[0], fields: ['a glacier and a zebra', 'Caroline'] }
    index.add(replaced.key, replaced.group, replaced.fields.map(fieldTerms))
    live = [replaced, ...live.slice(1)]
    for (const terms of queries) expectScores(index, live, terms)
  })

  it('stays exact when most documents go (automatic compaction) and new ones arrive', () => {
    const docs = corpus(2000)
    const index = indexOf(docs)
    const kept = docs.filter((_, i) => i % 4 === 0)
    for (const doc of docs) if (!kept.includes(doc)) index.remove(doc.key)
    const added = corpus(50, 99).map((doc) => ({ ...doc, key: doc.key + 100_000 }))
    for (const doc of added) index.add(doc.key, doc.group, doc.fields.map(fieldTerms))
    for (const terms of queries) expectScores(index, [...kept, ...added], terms)
  })

  it('round-trips through a structured-clone snapshot and keeps growing after the load', () => {
    const docs = corpus(500)
    const index = indexOf(docs)
    const loaded = Bm25Index.deserialize(structuredClone(index.serialize()))
    expect(loaded.size).toBe(500)
    for (const terms of queries) expectScores(loaded, docs, terms, 0)
    const more = corpus(40, 3).map((doc) => ({ ...doc, key: doc.key + 50_000 }))
    for (const doc of more) loaded.add(doc.key, doc.group, doc.fields.map(fieldTerms))
    loaded.remove(docs[0].key)
    for (const terms of queries) expectScores(loaded, [...docs.slice(1), ...more], terms)
  })

  it('leaves a removed document’s terms out of the snapshot', () => {
    const docs = corpus(100)
    const index = indexOf(docs)
    index.add(9999, 0, ['The xylophone recital is on Friday.', 'Melanie'].map(fieldTerms))
    expect(index.serialize().terms.split('\n')).toContain('xylophon')
    index.remove(9999)
    const snapshot = index.serialize()
    expect(snapshot.terms.split('\n')).not.toContain('xylophon')
    expect(snapshot.terms.split('\n')).not.toContain('recital')
    expect(Array.from(snapshot.keys)).not.toContain(9999)
    expect(snapshot.keys.length).toBe(100)
    expectScores(Bm25Index.deserialize(snapshot), docs, ['xylophon', 'zebra'])
  })
})
