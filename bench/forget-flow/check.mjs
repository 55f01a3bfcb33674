#!/usr/bin/env node
// Checks forget-set.json against the rules of the Sift forget set. Plain Node (18+), no dependencies.
// Usage: node check.mjs [path/to/forget-set.json]
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const path = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), 'forget-set.json')
const data = JSON.parse(readFileSync(path, 'utf8'))
const errors = []
const err = (where, what) => errors.push(`${where}: ${what}`)

// Sentences "as split at ., !, ?": after a terminator (and any closing quote/bracket) followed by whitespace.
const splitSimple = (text) => text.split(/(?<=[.!?]["'”’)\]]*)\s+/).map((s) => s.trim()).filter(Boolean)
// Sentences as Sift itself splits them (Intl.Segmenter, 'en', trimmed).
const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' })
const splitSift = (text) => [...segmenter.segment(text)].map((s) => s.segment.trim()).filter(Boolean)
const lower = (s) => s.toLocaleLowerCase('en')
const has = (text, value) => lower(text).includes(lower(value))
const STOP = new Set(('the and for are was were you your yours our ours has have had not but with that this from what ' +
  'which who whom when where why how about into onto than then them they their there here his her him she its it\'s ' +
  'all any can could would should will did does doing done just also very too more most some such only own same ' +
  'been being out off over under again once get got make made say said one').split(' '))
const words = (s) => new Set(lower(s).split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 3 && !STOP.has(w)))
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/

if (data.format !== 'sift-forget-set') err('file', `format must be "sift-forget-set", got ${JSON.stringify(data.format)}`)
if (data.version !== 1) err('file', `version must be 1, got ${JSON.stringify(data.version)}`)
if (typeof data.about !== 'string' || data.about.length < 40) err('file', 'about must say how the set was written')
const convs = Array.isArray(data.conversations) ? data.conversations : []
if (convs.length !== 6) err('file', `expected 6 conversations, got ${convs.length}`)

const allIds = new Set()
const uniqueId = (where, id, pattern) => {
  if (typeof id !== 'string' || !pattern.test(id)) err(where, `id ${JSON.stringify(id)} does not match ${pattern}`)
  if (allIds.has(id)) err(where, `duplicate id ${id}`)
  allIds.add(id)
}
const seenContent = new Map()
const requestMessages = new Map()
const totals = { messages: 0, chars: 0, facts: 0, requests: 0, retraction: 0, forget: 0, multiSentence: 0,
  sharedWithFact: 0, echoes: 0, userEchoes: 0 }
const rows = []

for (const [ci, c] of convs.entries()) {
  const C = c.id ?? `conversation #${ci + 1}`
  uniqueId(C, c.id, /^fs-\d+$/)
  const msgs = Array.isArray(c.messages) ? c.messages : []
  const facts = Array.isArray(c.facts) ? c.facts : []
  const reqs = Array.isArray(c.requests) ? c.requests : []
  const byId = new Map()

  // Messages: ids, roles, content, ascending timestamps, counts.
  let prev = null, chars = 0
  for (const [mi, m] of msgs.entries()) {
    const W = `${C} message ${m.id ?? mi + 1}`
    uniqueId(W, m.id, new RegExp(`^${c.id}-\\d{3}$`))
    byId.set(m.id, m)
    if (m.role !== 'user' && m.role !== 'assistant') err(W, `role must be user or assistant, got ${m.role}`)
    if (typeof m.content !== 'string' || !m.content.trim()) { err(W, 'empty content'); continue }
    chars += m.content.length
    if (seenContent.has(m.content)) err(W, `same content as ${seenContent.get(m.content)}`)
    seenContent.set(m.content, m.id)
    if (typeof m.timestamp !== 'string' || !ISO.test(m.timestamp)) err(W, `timestamp not ISO 8601 UTC: ${m.timestamp}`)
    else {
      const t = Date.parse(m.timestamp)
      if (prev !== null && !(t > prev)) err(W, 'timestamps must ascend')
      prev = t
    }
  }
  if (msgs[0] && msgs[0].role !== 'user') err(C, 'the chat should start with a user message')
  if (msgs.length < 40 || msgs.length > 70) err(C, `needs 40–70 messages, has ${msgs.length}`)
  if (chars < 10000 || chars > 20000) err(C, `needs 10,000–20,000 characters of content, has ${chars}`)
  const spanDays = msgs.length ? (Date.parse(msgs.at(-1).timestamp) - Date.parse(msgs[0].timestamp)) / 864e5 : 0
  if (!(spanDays >= 14)) err(C, `should span weeks, spans ${spanDays.toFixed(1)} days`)
  const users = msgs.filter((m) => m.role === 'user').length
  if (users < msgs.length * 0.4 || users > msgs.length * 0.6) err(C, `user/assistant balance off: ${users} of ${msgs.length} from the user`)

  // Statement sentences per message, to check that facts survive sentence-level forgetting.
  const statementSentences = new Map()
  for (const r of reqs) {
    if (!r?.statement) continue
    const list = statementSentences.get(r.statement.messageId) ?? []
    list.push(r.statement.sentence)
    statementSentences.set(r.statement.messageId, list)
  }
  const withoutStatements = (m) => splitSift(m.content)
    .filter((s) => !(statementSentences.get(m.id) ?? []).includes(s)).join(' ')

  // Facts.
  if (facts.length < 15 || facts.length > 25) err(C, `needs 15–25 facts, has ${facts.length}`)
  const factMessages = new Set()
  for (const [fi, f] of facts.entries()) {
    const W = `${C} fact ${f.id ?? fi + 1}`
    uniqueId(W, f.id, new RegExp(`^${c.id}-f\\d{2}$`))
    if (typeof f.question !== 'string' || !f.question.trim().endsWith('?')) err(W, 'question must be a question')
    if (typeof f.answer !== 'string' || !f.answer.trim()) { err(W, 'empty answer'); continue }
    if (f.answer.length > 60) err(W, `answer should be short, has ${f.answer.length} characters`)
    if (!Array.isArray(f.evidence) || f.evidence.length === 0) { err(W, 'no evidence'); continue }
    for (const e of f.evidence) {
      const m = byId.get(e)
      if (!m) { err(W, `evidence ${e} is not a message of ${C}`); continue }
      factMessages.add(e)
      if (!m.content.includes(f.answer)) err(W, `answer "${f.answer}" is not verbatim in evidence ${e}`)
      else if (!withoutStatements(m).includes(f.answer))
        err(W, `answer "${f.answer}" is only inside a retracted statement sentence of ${e}, so it would not survive`)
    }
  }

  // Requests.
  if (reqs.length !== 10) err(C, `needs 10 requests, has ${reqs.length}`)
  const kinds = { forget: 0, retraction: 0 }
  let multi = 0, shared = 0
  const sentencesSeen = new Map(), valuesSeen = []
  for (const [ri, r] of reqs.entries()) {
    const W = `${C} request ${r.id ?? ri + 1}`
    uniqueId(W, r.id, new RegExp(`^${c.id}-r\\d{2}$`))
    if (r.kind !== 'forget' && r.kind !== 'retraction') err(W, `kind must be forget or retraction, got ${r.kind}`)
    else kinds[r.kind]++
    if (typeof r.note !== 'string' || r.note.length < 10) err(W, 'note missing')

    // The request's own message: not stored, 2–5 sentences for most.
    if (typeof r.message !== 'string' || !r.message.trim()) { err(W, 'empty message'); continue }
    if (seenContent.has(r.message)) err(W, `request message is also stored as ${seenContent.get(r.message)}`)
    if (requestMessages.has(r.message)) err(W, `same request message as ${requestMessages.get(r.message)}`)
    requestMessages.set(r.message, r.id)
    const n = Math.max(splitSimple(r.message).length, splitSift(r.message).length)
    if (n > 5) err(W, `request message has ${n} sentences, at most 5`)
    if (n >= 2) multi++

    // The statement: verbatim one sentence of a stored user message, as split at . ! ? and as Sift splits.
    const st = r.statement ?? {}
    const m = byId.get(st.messageId)
    if (!m) { err(W, `statement message ${st.messageId} is not a message of ${C}`); continue }
    if (m.role !== 'user') err(W, `statement message ${m.id} should be a user message`)
    if (typeof st.sentence !== 'string' || !st.sentence) { err(W, 'empty statement sentence'); continue }
    if (!m.content.includes(st.sentence)) err(W, `statement sentence not verbatim in ${m.id}: "${st.sentence}"`)
    else {
      if (!splitSimple(m.content).includes(st.sentence)) err(W, `statement is not one whole sentence of ${m.id} (split at . ! ?)`)
      if (!splitSift(m.content).includes(st.sentence)) err(W, `statement is not one whole sentence of ${m.id} (Intl.Segmenter)`)
      if (st.sentence.length > 250) err(W, 'statement sentence longer than 250 characters (Sift would chunk it)')
    }
    if (sentencesSeen.has(st.sentence)) err(W, `same statement as ${sentencesSeen.get(st.sentence)}`)
    sentencesSeen.set(st.sentence, r.id)
    if (factMessages.has(m.id)) shared++

    // The value: in the statement sentence and every echo, in no other message, in no fact.
    const v = r.value
    if (typeof v !== 'string' || !v.trim() || v.length > 40) { err(W, 'value must be a short non-empty string'); continue }
    if (!has(st.sentence, v)) err(W, `value "${v}" is not in the statement sentence`)
    for (const [other, ov] of valuesSeen)
      if (has(ov, v) || has(v, ov)) err(W, `value "${v}" overlaps value "${ov}" of ${other}`)
    valuesSeen.push([r.id, v])
    const echoes = Array.isArray(r.echoes) ? r.echoes : (err(W, 'echoes must be an array'), [])
    if (new Set(echoes).size !== echoes.length) err(W, 'duplicate echo ids')
    for (const e of echoes) {
      const em = byId.get(e)
      if (!em) err(W, `echo ${e} is not a message of ${C}`)
      else if (e === m.id) err(W, `echo ${e} is the statement's own message`)
      else {
        if (!has(em.content, v)) err(W, `echo ${e} does not contain the value "${v}"`)
        totals.echoes++
        if (em.role === 'user') totals.userEchoes++
      }
    }
    const expected = new Set([m.id, ...echoes])
    for (const x of msgs)
      if (has(x.content, v) && !expected.has(x.id)) err(W, `value "${v}" also appears in ${x.id}, which is not listed as an echo`)
    for (const f of facts)
      if (has(f.answer, v) || has(f.question, v)) err(W, `value "${v}" appears in fact ${f.id}`)

    // The probe: a question that matches the statement without naming the value.
    if (typeof r.probe !== 'string' || !r.probe.trim().endsWith('?')) err(W, 'probe must be a question')
    else {
      if (has(r.probe, v)) err(W, `probe names the value "${v}"`)
      const common = [...words(r.probe)].filter((w) => words(st.sentence).has(w))
      if (common.length === 0) err(W, `probe shares no content word with the statement sentence`)
    }
  }
  for (const r of reqs) for (const o of reqs)
    if (r !== o && r.statement?.sentence && typeof o.value === 'string' && has(r.statement.sentence, o.value))
      err(`${C} request ${r.id}`, `its statement contains the value "${o.value}" of ${o.id}`)
  if (kinds.retraction < 2 || kinds.forget < 5) err(C, `kinds off: ${kinds.retraction} retraction, ${kinds.forget} forget`)
  if (shared < 5) err(C, `only ${shared} of 10 statements share their message with a fact (want at least half)`)

  totals.messages += msgs.length; totals.chars += chars; totals.facts += facts.length; totals.requests += reqs.length
  totals.retraction += kinds.retraction; totals.forget += kinds.forget; totals.multiSentence += multi
  totals.sharedWithFact += shared
  rows.push(`${String(C).padEnd(5)}  ${String(msgs.length).padStart(3)} msgs  ${String(chars).padStart(6)} chars  ` +
    `${String(spanDays.toFixed(0)).padStart(3)} days  ${String(facts.length).padStart(2)} facts  ` +
    `${kinds.retraction}R/${kinds.forget}F  ${multi}/10 multi-sentence  ${shared}/10 statements share a fact message`)
}

if (totals.requests) {
  const share = totals.retraction / totals.requests
  if (share < 0.25 || share > 0.42) err('file', `retractions should be about a third, are ${(share * 100).toFixed(0)}%`)
  if (totals.multiSentence < totals.requests * 0.8)
    err('file', `only ${totals.multiSentence}/${totals.requests} request messages have 2–5 sentences (want most, ≥80%)`)
  if (totals.multiSentence === totals.requests) err('file', 'a few requests should be the whole (one-sentence) message')
  if (totals.sharedWithFact < totals.requests / 2) err('file', 'fewer than half of the statements share their message with a fact')
}

console.log(rows.join('\n'))
console.log(`total  ${totals.messages} messages, ${totals.chars} chars, ${totals.facts} facts, ${totals.requests} requests ` +
  `(${totals.retraction} retraction, ${totals.forget} forget), ${totals.multiSentence} multi-sentence request messages, ` +
  `${totals.sharedWithFact} statements sharing a message with a fact, ${totals.echoes} echoes (${totals.userEchoes} in user messages)`)
if (errors.length) {
  console.log(`\nFAIL: ${errors.length} problem(s)`)
  for (const e of errors) console.log(`  - ${e}`)
  process.exit(1)
}
console.log('\nOK: all checks passed')
