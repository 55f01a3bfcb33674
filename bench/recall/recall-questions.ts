import { readFile } from 'node:fs/promises'
import { contentTerms, type Language } from '../../worker/text/text-analysis'
import type { EvidenceQuestion, LoadedConversation } from '../../tools/locomo/locomo-format'

/**
 * A question set asked instead of LoCoMo's own (`npm run bench:recall -- --questions FILE`): the conversations stay
 * LoCoMo's, the questions and their evidence come from the file, e.g. `bench/recall/paraphrases/locomo-paraphrases.json`.
 */
export interface QuestionSetEntry {
  /** The LoCoMo `sample_id` of the conversation asked (`conv-26`). */
  conversation: string
  /** LoCoMo's category of the question it derives from (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop). */
  category: number
  question: string
  /** The evidence turns (dia_ids, as the loader normalises them). */
  evidence: string[]
  /** The question it derives from, for the record. */
  original?: string
}

export const QUESTION_SET_FORMAT = 'sift-recall-questions'

/** Reads and checks a question set file; throws an Error naming the first entry that is not usable. */
export async function readQuestionSet(path: string): Promise<QuestionSetEntry[]> {
  const data = JSON.parse(await readFile(path, 'utf8')) as { format?: unknown; version?: unknown; questions?: unknown }
  if (data.format !== QUESTION_SET_FORMAT || data.version !== 1 || !Array.isArray(data.questions)) {
    throw new Error(
      `${path} is not a question set: expected { format: '${QUESTION_SET_FORMAT}', version: 1, questions: [...] }`,
    )
  }
  return data.questions.map((entry: Partial<QuestionSetEntry>, index: number) => {
    const { conversation, category, question, evidence } = entry
    const usable =
      typeof conversation === 'string' &&
      typeof question === 'string' &&
      question !== '' &&
      Number.isInteger(category) &&
      Array.isArray(evidence) &&
      evidence.length > 0 &&
      evidence.every((id) => typeof id === 'string')
    if (!usable)
      throw new Error(
        `${path}: questions[${index}] needs conversation, category, question and a non-empty evidence list`,
      )
    return entry as QuestionSetEntry
  })
}

/**
 * The conversations with their questions replaced by the set's; a conversation the set does not ask about is dropped,
 * and so are the set's questions about conversations the data does not hold (a part of LoCoMo, e.g. one half, asks
 * only its own). Throws when no question is left, or when an entry names an evidence turn its conversation lacks.
 */
export function withQuestionSet(
  conversations: readonly LoadedConversation[],
  entries: readonly QuestionSetEntry[],
): LoadedConversation[] {
  const byId = new Map(conversations.map((conversation) => [conversation.id, conversation]))
  const asked = new Map<string, EvidenceQuestion[]>()
  entries.forEach((entry, index) => {
    const conversation = byId.get(entry.conversation)
    if (!conversation) return
    const turns = new Set(conversation.messages.map((message) => message.id))
    const unknown = entry.evidence.find((id) => !turns.has(id))
    if (unknown !== undefined)
      throw new Error(`questions[${index}] names evidence ${unknown}, which ${entry.conversation} does not have`)
    const questions = asked.get(entry.conversation) ?? []
    questions.push({
      question: entry.question,
      answer: '',
      category: entry.category,
      evidence: entry.evidence,
      rawEvidence: entry.evidence,
    })
    asked.set(entry.conversation, questions)
  })
  if (asked.size === 0) throw new Error('none of its questions is about a conversation of the data')
  return conversations
    .filter((conversation) => asked.has(conversation.id))
    .map((conversation) => ({ ...conversation, questions: asked.get(conversation.id)! }))
}

/**
 * The content terms (stemmed, stop words dropped: what BM25 matches on) that `question` shares with `evidence`, the
 * texts of its evidence turns, leaving out `allowed` words (the speakers' names), all read in `language` (LoCoMo's,
 * English). Two terms count as shared when equal or when one of at least four letters begins the other
 * ("collaborate" / "collaboration"), so a rewording cannot pass on a derived form of the same word.
 */
export function sharedContentTerms(
  question: string,
  evidence: readonly string[],
  allowed: readonly string[] = [],
  language: Language = 'en',
): string[] {
  const terms = (text: string) => [...contentTerms(text, language)]
  const skip = new Set(allowed.flatMap(terms))
  const inEvidence = [...new Set(evidence.flatMap(terms))]
  const related = (a: string, b: string) =>
    a === b || (Math.min(a.length, b.length) >= 4 && (a.startsWith(b) || b.startsWith(a)))
  return terms(question).filter((term) => !skip.has(term) && inEvidence.some((other) => related(term, other)))
}
