// Assembles forget-set.json from the hand-written src/fs-*.txt files: it only numbers the messages, facts and
// requests, turns tags into ids and "@day HH:MM" session markers into timestamps. All text is copied as written.
//
// Source format (one item per line, "#" starts a comment line):
//   CONV fs-1 / START 2025-01-06          conversation id and the date of day 0
//   @3 18:45                              a session on day 3 at 18:45 UTC; the messages below follow it
//   U tag | text   /   A | text           a user / assistant message, optionally tagged for reference
//   FACT tag,tag | question | answer
//   REQ kind | statementTag | sentence | value | probe | echoTag,echoTag or - | note
//   MSG text                              the request's whole message (belongs to the REQ above)
import { readFileSync, writeFileSync, readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const files = readdirSync(here).filter((f) => /^fs-\d+\.txt$/.test(f))
  .sort((a, b) => parseInt(a.slice(3)) - parseInt(b.slice(3)))

const pad = (n, w) => String(n).padStart(w, '0')
const conversations = []
for (const file of files) {
  const lines = readFileSync(join(here, file), 'utf8').split('\n')
  let id, start, clock = null, prevRole = null
  const messages = [], facts = [], requests = [], tags = new Map()
  const die = (i, why) => { throw new Error(`${file}:${i + 1}: ${why}`) }
  const ref = (i, tag) => { if (!tags.has(tag)) die(i, `unknown tag ${tag}`); return tags.get(tag) }
  lines.forEach((raw, i) => {
    const line = raw.trim()
    if (!line || line.startsWith('#')) return
    let m
    if ((m = line.match(/^CONV (\S+)$/))) id = m[1]
    else if ((m = line.match(/^START (\d{4}-\d{2}-\d{2})$/))) start = m[1]
    else if ((m = line.match(/^@(\d+) (\d{2}):(\d{2})$/))) {
      clock = new Date(`${start}T${m[2]}:${m[3]}:00Z`)
      clock.setUTCDate(clock.getUTCDate() + Number(m[1]))
      prevRole = null
    } else if ((m = line.match(/^([UA])(?: (\S+))? \| (.+)$/))) {
      if (!clock) die(i, 'message before any session marker')
      const role = m[1] === 'U' ? 'user' : 'assistant'
      if (prevRole) clock = new Date(clock.getTime() + (role === 'assistant' ? 1 : 4) * 60000)
      prevRole = role
      const mid = `${id}-${pad(messages.length + 1, 3)}`
      if (m[2]) { if (tags.has(m[2])) die(i, `duplicate tag ${m[2]}`); tags.set(m[2], mid) }
      messages.push({ id: mid, role, content: m[3], timestamp: clock.toISOString().replace('.000Z', 'Z') })
    } else if (line.startsWith('FACT ')) {
      const [t, question, answer] = line.slice(5).split(' | ')
      if (answer === undefined) die(i, 'FACT needs tags | question | answer')
      facts.push({ id: `${id}-f${pad(facts.length + 1, 2)}`, question, answer,
        evidence: t.split(',').map((x) => ref(i, x.trim())) })
    } else if (line.startsWith('REQ ')) {
      const parts = line.slice(4).split(' | ')
      if (parts.length !== 7) die(i, `REQ needs 7 fields, got ${parts.length}`)
      const [kind, st, sentence, value, probe, echoes, note] = parts
      requests.push({ id: `${id}-r${pad(requests.length + 1, 2)}`, kind, message: null,
        statement: { messageId: ref(i, st), sentence }, value, probe,
        echoes: echoes === '-' ? [] : echoes.split(',').map((x) => ref(i, x.trim())), note })
    } else if (line.startsWith('MSG ')) {
      const r = requests[requests.length - 1]
      if (!r || r.message !== null) die(i, 'MSG without a REQ')
      r.message = line.slice(4)
    } else die(i, `unrecognised line: ${line.slice(0, 40)}`)
  })
  conversations.push({ id, messages, facts, requests })
}

const about = 'Hand-written English evaluation set for the ask-to-forget flow (findForgettable). Six unrelated users ' +
  '(an A&E nurse in Leeds, a glaciology PhD student in Edinburgh, an illustrator in Vancouver, a biology teacher in ' +
  'Houston, a product manager in Denver, a retired engineer in the Adelaide Hills) chat with an assistant over several ' +
  'weeks; every message, fact, request and note was written by hand, one sentence at a time, in src/fs-N.txt. The user ' +
  'mentions several personal facts per message, and the assistant echoes them. Each request is a new user message, ' +
  'usually with other news or questions around the forget or retraction, that is not part of the stored history; its ' +
  'statement is one sentence of a stored user message that often also holds facts that must survive, and its value ' +
  'appears only in that message and in the listed echoes. A small script (src/build.mjs) only numbered the items, ' +
  'turned tags into ids and session markers into timestamps; check.mjs verifies the rules.'

writeFileSync(join(here, '..', 'forget-set.json'),
  JSON.stringify({ format: 'sift-forget-set', version: 1, about, conversations }, null, 2) + '\n')
console.log(`wrote ${conversations.length} conversations: ${conversations.map((c) => `${c.id} (${c.messages.length} messages)`).join(', ')}`)
