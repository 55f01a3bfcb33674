import { IDBFactory } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import { seededRandom } from '../../worker/util/seeded-random'
import { createMemory } from '../../src/node'
import type { Sentence } from '../../src/types'
import { contentTermCount } from '../../worker/text/text-analysis'
import { LexicalIndex } from '../../worker/index/lexical/lexical-index'

function sentence(sid: number, text: string, conversationId = 'c1'): Sentence {
  return {
    sid,
    text,
    conversationId,
    messageId: `m${sid}`,
    seq: sid,
    index: 0,
    role: 'user',
    timestamp: 0,
    start: 0,
    end: text.length,
  }
}

/** Sentence `index` of message `messageId`. */
function part(sid: number, messageId: string, index: number, text: string, conversationId = 'c1'): Sentence {
  return { ...sentence(sid, text, conversationId), messageId, index }
}

describe('LexicalIndex', () => {
  it('ranks by BM25, filters by conversation, and forgets for good', () => {
    const index = new LexicalIndex()
    index.add([
      sentence(1, 'The zebra crossed the road.'),
      sentence(2, 'A zebra and another zebra grazed.', 'c2'),
      sentence(3, 'Nothing about stripes here.'),
      sentence(4, 'Zebra.'),
    ])
    const all = index.search('zebra')
    expect(all.map((h) => h.sid).sort()).toEqual([1, 2, 4])
    expect(all.every((h, i) => i === 0 || all[i - 1].score >= h.score)).toBe(true)
    expect(index.search('zebra', { conversationId: 'c2' }).map((h) => h.sid)).toEqual([2])
    index.remove([2, 4, 99])
    expect(index.search('zebra').map((h) => h.sid)).toEqual([1])
    expect(index.has(2)).toBe(false)
    expect(index.size).toBe(2)
    index.add([sentence(5, 'zebra again')])
    expect(
      index
        .search('zebra')
        .map((h) => h.sid)
        .sort(),
    ).toEqual([1, 5])
  })

  it('stays consistent with the store after forget and a reopen (rebuilt from the sentences table)', async () => {
    const indexedDB = new IDBFactory()
    const memory = await createMemory({ name: 'lexical', indexedDB })
    await memory.add([
      { role: 'user', content: 'My quokka photo is on the fridge.', id: 'q', conversationId: 'a' },
      { role: 'user', content: 'Quokka facts are fun.', id: 'keep', conversationId: 'b' },
    ])
    expect(await memory.forget({ id: 'q' })).toBe(1)
    const after = await memory.buildContext('quokka', { strategy: 'lexical' })
    expect(after.items.map((i) => i.messageId)).toEqual(['keep'])
    await memory.close()
    const reopened = await createMemory({ name: 'lexical', indexedDB })
    const rebuilt = await reopened.buildContext('quokka fridge', { strategy: 'lexical' })
    expect(rebuilt.items.map((i) => i.messageId)).toEqual(['keep'])
    expect(rebuilt.text).not.toContain('fridge')
    await reopened.close()
  })
})

describe('LexicalIndex term normalisation', () => {
  it('matches inflections of a word and ignores stop words in the query', () => {
    const index = new LexicalIndex()
    index.add([
      sentence(1, 'What did you do when you were there?'),
      sentence(2, 'I painted a sunrise last year.'),
      sentence(3, 'Painting calms me down.'),
    ])
    expect(
      index
        .search('What did Melanie paint?')
        .map((h) => h.sid)
        .sort(),
    ).toEqual([2, 3])
  })

  it('searches a query made only of stop words (and punctuation) with them kept', () => {
    const index = new LexicalIndex()
    index.add([sentence(1, 'What about you?'), sentence(2, 'Sunny today.')])
    expect(index.search('what about').map((h) => h.sid)).toEqual([1])
    expect(index.search('What about you?').map((h) => h.sid)).toEqual([1])
  })
})

describe('LexicalIndex speaker field', () => {
  it('prefers the named speaker among sentences sharing the topic words', () => {
    const index = new LexicalIndex()
    index.add([
      { ...sentence(1, 'I love to paint landscapes.'), role: 'Caroline' },
      { ...sentence(2, 'I love to paint landscapes.'), role: 'Melanie' },
    ])
    expect(index.search('What does Melanie paint?').map((h) => h.sid)).toEqual([2, 1])
    expect(index.search('What does Caroline paint?').map((h) => h.sid)).toEqual([1, 2])
  })
})

describe('LexicalIndex turn documents', () => {
  it('ranks a sentence whose turn holds the query words above one that only shares a word itself', () => {
    const index = new LexicalIndex()
    index.add([part(1, 'a', 0, 'I spent the week researching.'), part(2, 'a', 1, 'Adoption agencies are complicated.')])
    index.add([part(3, 'b', 0, 'I was researching recipes for the party.')])
    const hits = index.search('researching adoption')
    expect(
      hits
        .slice(0, 2)
        .map((h) => h.sid)
        .sort(),
    ).toEqual([1, 2])
    expect(hits.map((h) => h.sid)).toContain(3)
  })

  it('offers the other sentences of a matching turn, below the ones that match themselves', () => {
    const index = new LexicalIndex()
    index.add([part(1, 'a', 0, 'We adopted a kitten.'), part(2, 'a', 1, 'Her name is Luna.')])
    expect(index.search('kitten').map((h) => h.sid)).toEqual([1, 2])
    index.remove([1, 2])
    expect(index.search('kitten')).toEqual([])
  })
})

describe('LexicalIndex snapshot', () => {
  it('loads from a structured-clone snapshot with the same rankings, without forgotten words, and keeps indexing', () => {
    const index = new LexicalIndex()
    index.add([part(1, 'a', 0, 'I spent the week researching.'), part(2, 'a', 1, 'Adoption agencies are complicated.')])
    index.add([
      part(3, 'b', 0, 'I was researching recipes for the party.', 'c2'),
      part(4, 'gone', 0, 'The xylophone recital is on Friday.'),
    ])
    index.remove([4])
    const snapshot = structuredClone(index.serialize())
    expect(snapshot.sentences.terms.split('\n')).not.toContain('xylophon')
    expect(snapshot.turns.terms.split('\n')).not.toContain('xylophon')
    expect(snapshot.turnMessageIds).not.toContain('gone')
    const loaded = LexicalIndex.deserialize(snapshot)
    for (const query of ['researching adoption', 'party recipes', 'xylophone'])
      expect(loaded.search(query)).toEqual(index.search(query))
    expect(loaded.search('researching', { conversationId: 'c2' }).map((h) => h.sid)).toEqual([3])
    expect(loaded.similarSentences('researching agencies', 'en', 'c1')).toEqual(
      index.similarSentences('researching agencies', 'en', 'c1'),
    )
    loaded.add([part(5, 'a', 0, 'Adoption papers arrived.')])
    loaded.add([part(6, 'c', 0, 'A pelican landed on the roof.')])
    expect(loaded.search('pelican').map((h) => h.sid)).toEqual([6])
    expect(
      loaded
        .search('researching')
        .map((h) => h.sid)
        .sort(),
    ).toEqual([1, 3])
    expect(loaded.search('adoption').map((h) => h.sid)).toEqual([5, 2])
    loaded.remove([6])
    expect(loaded.search('pelican')).toEqual([])
  })
})

describe('LexicalIndex content term counts', () => {
  it('counts each indexed sentence as contentTermCount does in its language, keeps the counts through a snapshot, and knows nothing of other sids', () => {
    const texts = [
      'Thanks!',
      'Wow, Caroline!',
      'What did she say?',
      'The boiler was serviced in March by Anna.',
      '',
      'Ünïcode wörds ünd 42 Zahlen',
    ]
    const index = new LexicalIndex()
    index.add(texts.map((text, i) => sentence(i + 1, text)))
    const count = (text: string, sid: number) => contentTermCount(text, index.languageOf(sid))
    texts.forEach((text, i) => expect(index.contentTermCountOf(i + 1)).toBe(count(text, i + 1)))
    expect(index.contentTermCountOf(0)).toBeUndefined()
    expect(index.contentTermCountOf(99)).toBeUndefined()
    index.remove([2])
    const loaded = LexicalIndex.deserialize(structuredClone(index.serialize()))
    texts.forEach((text, i) =>
      expect(loaded.contentTermCountOf(i + 1)).toBe(i + 1 === 2 ? undefined : count(text, i + 1)),
    )
    loaded.add([sentence(300, 'A pelican landed on the roof.')])
    expect(loaded.contentTermCountOf(300)).toBe(contentTermCount('A pelican landed on the roof.', 'en'))
  })
})

describe('LexicalIndex search limit', () => {
  it('keeps exactly the best `limit` hits of the full list, ties broken by older sentence', () => {
    const random = seededRandom(5)
    const words = ['violin', 'lisbon', 'boiler', 'salmon', 'budget', 'kanji']
    const index = new LexicalIndex()
    // Many sentences repeat the same words, so equal scores straddle every cut-off.
    index.add(
      Array.from({ length: 600 }, (_, i) =>
        sentence(
          i + 1,
          Array.from({ length: 1 + Math.floor(random() * 3) }, () => words[Math.floor(random() * words.length)]).join(
            ' ',
          ),
        ),
      ),
    )
    for (const query of ['violin', 'violin lisbon', 'boiler salmon budget']) {
      const full = index.search(query)
      expect(full.length).toBeGreaterThan(100)
      for (const limit of [1, 7, 50, 99, full.length, full.length + 5])
        expect(index.search(query, {}, limit)).toEqual(full.slice(0, limit))
    }
  })
})

describe('LexicalIndex compounds', () => {
  const history = [
    'Ich habe mir endlich einen Yogakurs an der Volkshochschule gegönnt, mittwochs um 19 Uhr.',
    'Am 23. April ist die Eigentümerversammlung, meine erste.',
    'Luca hat jetzt seine Fahrstunden, zweimal die Woche.',
    'Der Kurs beginnt erst im Herbst, sagt die Leiterin.',
    'Wir haben heute lange über die Versammlung gesprochen.',
  ]

  it('finds a German compound by its parts written apart, and the parts by the compound', () => {
    const index = new LexicalIndex()
    index.add(history.map((text, i) => sentence(i + 1, text)))
    expect(index.languageOf(1)).toBe('de')
    expect(index.search('Wann ist mein Kurs für Yoga?', undefined, 2, undefined, 'de').map((h) => h.sid)).toContain(1)
    expect(
      index.search('Wann ist die Versammlung der Eigentümer?', undefined, 1, undefined, 'de').map((h) => h.sid),
    ).toEqual([2])
    expect(index.search('Wann sind die Stunden?', undefined, undefined, undefined, 'de').map((h) => h.sid)).toContain(3)
  })

  it('keeps English words whole: no character grams, so a part does not find the compound', () => {
    const index = new LexicalIndex()
    index.add([sentence(1, 'We booked the boathouse for Saturday.'), sentence(2, 'The boat needs a new sail.')])
    expect(index.search('Which house did we book?', undefined, undefined, undefined, 'en').map((h) => h.sid)).toEqual([
      1,
    ])
    expect(index.search('Where is the house?', undefined, undefined, undefined, 'en')).toEqual([])
  })
})
