import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { EvidenceQuestion, LoadedConversation } from '../../../tools/locomo/locomo-format'

/**
 * The multilingual recall set (`bench/recall/multilingual/conversations/*.json`, described in `FORMAT.md`): one
 * user/assistant conversation per file, written in its language, with questions whose answer is verbatim in their
 * evidence. `readMultilingualSet` checks every rule of the format before a benchmark runs on a file, so a figure is
 * never measured on a file that breaks them.
 */

export const MULTILINGUAL_FORMAT = 'sift-multilingual-conversation'

/** How a question relates to its evidence (FORMAT.md). */
export type QuestionKind = 'direct' | 'indirect' | 'update'
export const QUESTION_KINDS: readonly QuestionKind[] = ['direct', 'indirect', 'update']

/** A question of the set, as the recall benchmark asks it. */
export interface MultilingualQuestion extends EvidenceQuestion {
  id: string
  kind: QuestionKind
  /** `update` only: the superseded value, said before the evidence. */
  stale?: string
}

/** A conversation of the set: its id is its `language` tag (`de`, `en-es`). */
export interface MultilingualConversation extends LoadedConversation {
  language: string
  languages: string[]
  title: string
  questions: MultilingualQuestion[]
}

interface RawMessage {
  id?: unknown
  role?: unknown
  content?: unknown
  timestamp?: unknown
}

interface RawQuestion {
  id?: unknown
  kind?: unknown
  question?: unknown
  answer?: unknown
  stale?: unknown
  evidence?: unknown
  note?: unknown
}

const MIN_CHARS = 25_000
const MAX_CHARS = 33_000
const MIN_MESSAGES = 60
const MIN_QUESTIONS: Record<QuestionKind, number> = { direct: 40, indirect: 12, update: 12 }

/** Whether `path` is the set: a folder of its files, or one of them. */
export async function isMultilingualSet(path: string): Promise<boolean> {
  if ((await stat(path)).isDirectory()) return (await setFiles(path)).length > 0
  if (!path.endsWith('.json')) return false
  try {
    return (JSON.parse(await readFile(path, 'utf8')) as { format?: unknown }).format === MULTILINGUAL_FORMAT
  } catch {
    return false
  }
}

async function setFiles(folder: string): Promise<string[]> {
  const names = (await readdir(folder)).filter((name) => name.endsWith('.json')).sort()
  const files: string[] = []
  for (const name of names) {
    const text = await readFile(join(folder, name), 'utf8')
    if ((JSON.parse(text) as { format?: unknown }).format === MULTILINGUAL_FORMAT) files.push(join(folder, name))
  }
  return files
}

/**
 * The conversations of `path` (a folder: every set file in it, by name; or one file), each checked against the
 * format's rules; throws an Error listing every rule a file breaks.
 */
export async function readMultilingualSet(path: string): Promise<MultilingualConversation[]> {
  const files = (await stat(path)).isDirectory() ? await setFiles(path) : [path]
  if (files.length === 0) throw new Error(`${path} holds no ${MULTILINGUAL_FORMAT} file`)
  const conversations: MultilingualConversation[] = []
  for (const file of files) {
    const data: unknown = JSON.parse(await readFile(file, 'utf8'))
    const { conversation, problems } = checkedConversation(data)
    if (problems.length > 0) throw new Error(`${file} breaks the format:\n  - ${problems.join('\n  - ')}`)
    if (conversations.some((other) => other.id === conversation.id))
      throw new Error(`${file}: a second conversation in ${conversation.id}`)
    conversations.push(conversation)
  }
  return conversations
}

/** One file's conversation and the format rules it breaks (FORMAT.md), in the order they are checked. */
export function checkedConversation(data: unknown): { conversation: MultilingualConversation; problems: string[] } {
  const problems: string[] = []
  const need = (holds: boolean, problem: string) => {
    if (!holds) problems.push(problem)
  }
  const file = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>
  need(file.format === MULTILINGUAL_FORMAT && file.version === 1, `format must be ${MULTILINGUAL_FORMAT}, version 1`)
  const language = typeof file.language === 'string' ? file.language : ''
  const languages = Array.isArray(file.languages) ? file.languages.filter((tag) => typeof tag === 'string') : []
  need(language !== '' && languages.length > 0, 'language and languages must name the languages used')
  need(typeof file.about === 'string' && file.about.length > 40, 'about must say how it was written')

  const rawMessages = (Array.isArray(file.messages) ? file.messages : []) as RawMessage[]
  need(rawMessages.length >= MIN_MESSAGES, `${rawMessages.length} messages, want at least ${MIN_MESSAGES}`)
  const messages: MultilingualConversation['messages'] = []
  let chars = 0
  let previous = -Infinity
  for (const [i, raw] of rawMessages.entries()) {
    const id = typeof raw.id === 'string' ? raw.id : ''
    need(id !== '' && !messages.some((message) => message.id === id), `messages[${i}].id missing or repeated`)
    need(raw.role === 'user' || raw.role === 'assistant', `messages[${i}].role must be user or assistant`)
    const content = typeof raw.content === 'string' ? raw.content : ''
    need(content.trim() !== '', `messages[${i}].content is empty`)
    const time = typeof raw.timestamp === 'string' ? Date.parse(raw.timestamp) : Number.NaN
    need(Number.isFinite(time) && time >= previous, `messages[${i}].timestamp missing or before the previous one`)
    previous = time
    chars += content.length
    messages.push({ id, role: String(raw.role), content, conversationId: language, timestamp: raw.timestamp as string })
  }
  need(chars >= MIN_CHARS && chars <= MAX_CHARS, `${chars} characters of content, want ${MIN_CHARS}–${MAX_CHARS}`)

  const position = new Map(messages.map((message, index) => [message.id ?? '', index]))
  const rawQuestions = (Array.isArray(file.questions) ? file.questions : []) as RawQuestion[]
  const questions: MultilingualQuestion[] = []
  for (const [i, raw] of rawQuestions.entries()) {
    const question = checkedQuestion(raw, `questions[${i}]`, messages, position, need)
    need(!questions.some((other) => other.id === question.id), `questions[${i}].id repeated`)
    questions.push(question)
  }
  for (const kind of QUESTION_KINDS) {
    const count = questions.filter((question) => question.kind === kind).length
    need(count >= MIN_QUESTIONS[kind], `${count} ${kind} questions, want at least ${MIN_QUESTIONS[kind]}`)
  }
  const quarters = [0, 0, 0, 0]
  const evidence = questions.flatMap((question) => question.evidence)
  for (const id of evidence) quarters[Math.min(3, Math.floor((4 * position.get(id)!) / messages.length))]++
  need(
    quarters.every((count) => count >= evidence.length / 10),
    `evidence by quarter ${quarters.join('/')}: each quarter should hold at least 10%`,
  )
  const title = typeof file.title === 'string' ? file.title : language
  return { conversation: { id: language, language, languages, title, messages, questions }, problems }
}

function checkedQuestion(
  raw: RawQuestion,
  where: string,
  messages: readonly { id?: string; content: string }[],
  position: ReadonlyMap<string, number>,
  need: (holds: boolean, problem: string) => void,
): MultilingualQuestion {
  const id = typeof raw.id === 'string' ? raw.id : ''
  need(id !== '', `${where}.id missing`)
  const kind = raw.kind as QuestionKind
  need(QUESTION_KINDS.includes(kind), `${where}.kind must be one of ${QUESTION_KINDS.join(', ')}`)
  const question = typeof raw.question === 'string' ? raw.question : ''
  need(question.length > 5, `${where}.question missing`)
  const answer = typeof raw.answer === 'string' ? raw.answer : ''
  need(answer.trim() !== '', `${where}.answer missing`)
  const evidence = Array.isArray(raw.evidence) ? raw.evidence.filter((item) => typeof item === 'string') : []
  need(evidence.length > 0 && evidence.every((item) => position.has(item)), `${where}.evidence must name messages`)
  const texts = evidence.map((item) => messages[position.get(item) ?? -1]?.content ?? '')
  need(
    texts.some((text) => text.includes(answer)),
    `${where} (${id}): answer ${JSON.stringify(answer)} is not verbatim in its evidence`,
  )
  need(!question.includes(answer), `${where} (${id}): the answer is in the question itself`)
  need(typeof raw.note === 'string' && raw.note !== '', `${where}.note must say how its words differ from the evidence`)
  const stale = typeof raw.stale === 'string' && raw.stale !== '' ? raw.stale : undefined
  if (kind === 'update') {
    const last = Math.max(...evidence.map((item) => position.get(item) ?? -1))
    const before = messages.slice(0, last).some((message) => stale !== undefined && message.content.includes(stale))
    need(before, `${where} (${id}): an update needs its stale value said before the evidence`)
  }
  return {
    id,
    kind,
    question,
    answer,
    ...(stale === undefined ? {} : { stale }),
    // Not a LoCoMo question: no category of LoCoMo's (the multilingual report groups by `kind` instead).
    category: 0,
    evidence,
    rawEvidence: evidence,
  }
}
