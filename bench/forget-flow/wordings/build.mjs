// Assembles ../forget-wordings.json from the hand-written en.json, es.json, de.json and fr.json: the English
// requests are put with the six conversations of ../forget-set.json (their messages and facts as they are); each other
// language's conversation gets ids from its tags and one timestamp a day. Every request gets its half by a rule fixed
// before any measurement: in each conversation, in the order written, the 1st, 3rd, 5th… are `tune` and the 2nd,
// 4th, 6th… `held-out`. All text is copied as written.
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const read = (name) => JSON.parse(readFileSync(join(here, name), 'utf8'))
const pad = (n, w) => String(n).padStart(w, '0')
const half = (index) => (index % 2 === 0 ? 'tune' : 'held-out')

const english = read('en.json')
const original = read('../forget-set.json')
const conversations = original.conversations.map(({ id, messages, facts }) => {
  const requests = english.requests.filter((r) => r.conversation === id).map((r, i) => ({
    id: `${id}-w${pad(i + 1, 2)}`, kind: 'forget', split: half(i), message: r.message,
    statement: r.statement, value: r.value, probe: r.probe, echoes: [],
  }))
  return { id, language: 'en', messages, facts, requests }
})

for (const file of ['es.json', 'de.json', 'fr.json']) {
  const source = read(file)
  const start = Date.UTC(2025, 2, 3, 19, 0)
  const tags = new Map()
  const messages = source.messages.map((m, i) => {
    const id = `${source.id}-${pad(i + 1, 3)}`
    if (m.tag) tags.set(m.tag, id)
    const day = Math.floor(i / 2)
    const time = new Date(start + day * 86400000 + (i % 2) * 60000)
    return { id, role: m.role, content: m.content, timestamp: time.toISOString().replace('.000Z', 'Z') }
  })
  const requests = source.requests.map((r, i) => {
    if (!tags.has(r.tag)) throw new Error(`${file}: unknown tag ${r.tag}`)
    return {
      id: `${source.id}-w${pad(i + 1, 2)}`, kind: 'forget', split: half(i), message: r.message,
      statement: { messageId: tags.get(r.tag), sentence: r.sentence }, value: r.value, probe: r.probe, echoes: [],
    }
  })
  conversations.push({ id: source.id, language: source.language, messages, facts: [], requests })
}

const about = 'Forget requests in many wordings and four languages, written apart from the cue table (README.md, ' +
  '"The wordings set"): 36 English requests against the six conversations of forget-set.json, and one conversation ' +
  'each in Spanish, German and French with 12 requests each. Every request is a message of five or six sentences, one ' +
  'of which asks to forget or retracts a fact stated in one sentence of a stored user message. Each request is in the ' +
  'tune or the held-out half (split), fixed by its position before any measurement.'
writeFileSync(join(here, '..', 'forget-wordings.json'),
  JSON.stringify({ format: 'sift-forget-set', version: 1, about, conversations }, null, 2) + '\n')
console.log(`wrote ${conversations.length} conversations, ${conversations.reduce((n, c) => n + c.requests.length, 0)} requests`)
