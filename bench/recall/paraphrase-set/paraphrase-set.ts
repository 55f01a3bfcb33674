import { readFile } from 'node:fs/promises'
import type { MessageInput } from '../../../src/types'
import { seededRandom } from '../../../worker/util/seeded-random'
import { sharedContentTerms } from '../recall-questions'

/**
 * The harder paraphrase set (README.md beside this file): facts a user states in passing, each planted in a long
 * user/assistant conversation whose filler is the multilingual set's English conversation, and asked about twice: once
 * in other words (`indirect`, no content word shared with the message that states it) and once naming it (`direct`,
 * the control). Facts f01–f24 make the tune half's conversation, f25–f48 the held-out half's.
 */

export type ParaphraseKind = 'indirect' | 'direct'
export type ParaphraseHalf = 'tune' | 'held-out'

interface FactEntry {
  id: string
  statement: string
  indirect: { question: string; answer: string }
  direct: { question: string; answer: string }
  /** The assistant's reply to the statement: on its subject, without the answer. */
  reply: string
  /** A line on the same subject about someone or something else, added to a user message half the conversation away. */
  decoy: string
}

interface FactsFile {
  format: string
  version: number
  facts: FactEntry[]
  news: string[]
}

/** A question of the set with what a context must hold to answer it. */
export interface ParaphraseQuestion {
  fact: string
  kind: ParaphraseKind
  question: string
  /** Verbatim in the statement and nowhere else in the conversation. */
  answer: string
  /** The planted message, and where its statement sits in the message's content. */
  messageId: string
  start: number
  end: number
}

export interface ParaphraseConversation {
  id: string
  half: ParaphraseHalf
  messages: (MessageInput & { id: string; timestamp: number })[]
  questions: ParaphraseQuestion[]
}

const FACTS_FILE = new URL('./facts.json', import.meta.url)
const FILLER_FILE = new URL('../multilingual/conversations/en.json', import.meta.url)
/** Facts per half: f01–f24 tune, f25–f48 held-out. */
const HALF_SIZE = 24

/**
 * The set's two conversations; throws naming every fact that breaks a rule (an indirect question sharing a content
 * term with its message, a direct one sharing none, an answer not verbatim in its statement, in its question, or
 * elsewhere in the conversation), so no figure is measured on a broken set.
 */
export async function readParaphraseSet(seed = 31): Promise<ParaphraseConversation[]> {
  const facts = JSON.parse(await readFile(FACTS_FILE, 'utf8')) as FactsFile
  if (facts.format !== 'sift-paraphrase-facts' || facts.version !== 1) throw new Error('facts.json: unknown format')
  const filler = JSON.parse(await readFile(FILLER_FILE, 'utf8')) as {
    messages: { id: string; role: string; content: string; timestamp: string }[]
  }
  const halves: [ParaphraseHalf, FactEntry[]][] = [
    ['tune', facts.facts.slice(0, HALF_SIZE)],
    ['held-out', facts.facts.slice(HALF_SIZE)],
  ]
  const conversations = halves.map(([half, entries], i) => planted(half, entries, filler.messages, facts, seed + i))
  const problems = conversations.flatMap(brokenRules)
  if (problems.length > 0) throw new Error(`the paraphrase set breaks its rules:\n  - ${problems.join('\n  - ')}`)
  return conversations
}

/** The filler conversation with one user message per fact (news around the statement) and its reply, spread
 * evenly, and each fact's decoy in a filler user message half the conversation away. */
function planted(
  half: ParaphraseHalf,
  entries: readonly FactEntry[],
  filler: readonly { id: string; role: string; content: string; timestamp: string }[],
  file: FactsFile,
  seed: number,
): ParaphraseConversation {
  const random = seededRandom(seed)
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]
  const id = `paraphrase-${half}`
  // Facts go in after a filler assistant reply, so the conversation keeps alternating.
  const slots = filler.flatMap((message, index) => (message.role === 'assistant' ? [index] : []))
  const at = new Map<number, FactEntry>()
  entries.forEach((entry, i) => at.set(slots[Math.floor(((i + 0.5) * slots.length) / entries.length)], entry))
  // Each decoy joins the user message before the slot half the conversation away from its fact's.
  const decoys = new Map<number, string[]>()
  entries.forEach((entry, i) => {
    const slot = slots[Math.floor(((i + 0.5 + entries.length / 2) * slots.length) / entries.length) % slots.length]
    decoys.set(slot - 1, [...(decoys.get(slot - 1) ?? []), entry.decoy])
  })
  const messages: ParaphraseConversation['messages'] = []
  const questions: ParaphraseQuestion[] = []
  filler.forEach((message, index) => {
    const timestamp = Date.parse(message.timestamp)
    const content = [message.content, ...(decoys.get(index) ?? [])].join(' ')
    messages.push({ id: `${id}-${message.id}`, role: message.role, content, timestamp })
    const entry = at.get(index)
    if (!entry) return
    // News that shares a term with the fact's indirect question would make it a direct one.
    const news = file.news.filter((line) => sharedContentTerms(entry.indirect.question, [line]).length === 0)
    const before = pick(news)
    const after = pick(news.filter((line) => line !== before))
    const planted = `${before} ${entry.statement} ${after}`
    const messageId = `${id}-${entry.id}`
    const start = before.length + 1
    messages.push({ id: messageId, role: 'user', content: planted, timestamp: timestamp + 60_000 })
    messages.push({ id: `${messageId}-reply`, role: 'assistant', content: entry.reply, timestamp: timestamp + 90_000 })
    for (const kind of ['indirect', 'direct'] as const)
      questions.push({ fact: entry.id, kind, ...entry[kind], messageId, start, end: start + entry.statement.length })
  })
  return { id, half, messages, questions }
}

function brokenRules(conversation: ParaphraseConversation): string[] {
  const problems: string[] = []
  const byId = new Map(conversation.messages.map((message) => [message.id, message.content]))
  for (const q of conversation.questions) {
    const content = byId.get(q.messageId)!
    const statement = content.slice(q.start, q.end)
    const shared = sharedContentTerms(q.question, [content])
    if (q.kind === 'indirect' && shared.length > 0) problems.push(`${q.fact} indirect shares ${shared.join(', ')}`)
    if (q.kind === 'direct' && shared.length === 0) problems.push(`${q.fact} direct shares no content word`)
    if (!statement.includes(q.answer)) problems.push(`${q.fact} ${q.kind}: answer not in the statement`)
    if (q.question.toLowerCase().includes(q.answer.toLowerCase()))
      problems.push(`${q.fact} ${q.kind}: answer in question`)
    const elsewhere = conversation.messages.filter(
      (message) => message.id !== q.messageId && message.content.toLowerCase().includes(q.answer.toLowerCase()),
    )
    if (elsewhere.length > 0)
      problems.push(`${q.fact} ${q.kind}: answer also in ${elsewhere.map((m) => m.id).join(', ')}`)
  }
  return problems
}
