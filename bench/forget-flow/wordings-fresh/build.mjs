// Assembles a held-out set of forget requests from a folder of hand-written files: `npx tsx wordings-fresh/build.mjs
// [folder]` (this folder when none is given; tsx, to check statements with Sift's own sentence splitter). The
// folder's set.json names the output file, its `about` and the language files. The English requests (en.json) are
// put with the six conversations of ../forget-set.json (their messages and facts as they are); each other language
// file either names a conversation to borrow (its messages only, none of its requests) or brings its own. Each
// conversation without ids gets them from its tags and one timestamp a day. Every request is `held-out`: the set is
// never tuned on. Controls (messages that ask nothing to be forgotten) are kept per conversation. All text is copied
// as written.
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { splitSentences } from '../../../src/core/split-sentences.ts'

const here = process.argv[2] ? resolve(process.argv[2]) : dirname(fileURLToPath(import.meta.url))
const read = (name) => JSON.parse(readFileSync(join(here, name), 'utf8'))
const set = read('set.json')
const pad = (n, w) => String(n).padStart(w, '0')
const split = 'held-out'

const controlsOf = (id, list) => list.map((c, i) => ({ id: `${id}-c${pad(i + 1, 2)}`, split, message: c.message }))

const english = read('en.json')
const original = read('../forget-set.json')
const conversations = original.conversations.map(({ id, messages, facts }) => {
  const requests = english.requests.filter((r) => r.conversation === id).map((r, i) => ({
    id: `${id}-h${pad(i + 1, 2)}`, kind: 'forget', split, message: r.message,
    statement: r.statement, value: r.value, probe: r.probe, echoes: [],
  }))
  const controls = controlsOf(id, english.controls.filter((c) => c.conversation === id))
  return { id, language: 'en', messages, facts, requests, controls }
})

for (const file of set.languages) {
  const fresh = read(file)
  const source = fresh.conversation ? read(fresh.conversation) : fresh
  const start = Date.UTC(2025, 2, 3, 19, 0)
  const tags = new Map()
  const messages = source.messages.map((m, i) => {
    const id = `${source.id}-${pad(i + 1, 3)}`
    if (m.tag) tags.set(m.tag, id)
    const day = Math.floor(i / 2)
    const time = new Date(start + day * 86400000 + (i % 2) * 60000)
    return { id, role: m.role, content: m.content, timestamp: time.toISOString().replace('.000Z', 'Z') }
  })
  const requests = fresh.requests.map((r, i) => {
    if (!tags.has(r.tag)) throw new Error(`${file}: unknown tag ${r.tag}`)
    return {
      id: `${source.id}-h${pad(i + 1, 2)}`, kind: 'forget', split, message: r.message,
      statement: { messageId: tags.get(r.tag), sentence: r.sentence }, value: r.value, probe: r.probe, echoes: [],
    }
  })
  const controls = controlsOf(source.id, fresh.controls)
  conversations.push({ id: source.id, language: fresh.language, messages, facts: [], requests, controls })
}

// Every statement must be a whole sentence of its stored user message as Sift splits it, as written, and hold its
// value; the echoes are, by rule, the other messages that hold the value too (the flow forgets them through its second
// list).
const holds = (text, value) => text.toLowerCase().includes(value.toLowerCase())
for (const c of conversations)
  for (const r of c.requests) {
    const stored = c.messages.find((m) => m.id === r.statement.messageId)
    const sentences = stored?.role === 'user' ? splitSentences(stored.content).map((s) => s.text) : []
    if (!sentences.includes(r.statement.sentence))
      throw new Error(`${r.id}: the statement is not a whole sentence of user message ${r.statement.messageId}`)
    if (!holds(r.statement.sentence, r.value)) throw new Error(`${r.id}: the statement does not hold its value`)
    r.echoes = c.messages.filter((m) => m.id !== stored.id && holds(m.content, r.value)).map((m) => m.id)
  }

writeFileSync(join(here, '..', set.output),
  JSON.stringify({ format: 'sift-forget-set', version: 1, about: set.about, conversations }, null, 2) + '\n')
const count = (key) => conversations.reduce((n, c) => n + c[key].length, 0)
console.log(`wrote ${conversations.length} conversations, ${count('requests')} requests, ${count('controls')} controls`)
