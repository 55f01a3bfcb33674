/**
 * Parses a conversation history: either LoCoMo JSON (an array of samples, each with `conversation` and `qa`) or a
 * plain array of chat messages `[{ role, content, … }]`. It imports nothing from Node, so the demo page (in the
 * browser), the CLI and the recall benchmark (through tools/locomo/locomo.ts, which reads the file) turn the same LoCoMo
 * file into the same messages. It lives in scripts/, outside src/, so the published library never includes it.
 *
 * Decisions, applied the same way everywhere the parser is used:
 * - A turn keeps its `dia_id` as its message id (`D1:3`), and evidence ids are the same dia_ids, so
 *   `items[].messageId` compares directly with `question.evidence`. Dia_ids repeat across conversations: a
 *   caller that puts several conversations into one memory qualifies them with `qualifiedMessages` or
 *   `qualifiedConversation`. A turn without a dia_id gets `D<session>:<position>`.
 * - Roles are the speakers' names; a turn without one is read as `speaker`, with a warning.
 * - Image turns: LoCoMo's speakers "share" photos whose only text is a BLIP caption, and some questions are
 *   answered by the photo alone. By default the caption is appended to the turn as ` [shared a photo of …]`,
 *   as LoCoMo's own evaluation prompts do ("… and shared <caption>"); `images: 'omit'` drops it.
 * - Timestamps: a session's `session_N_date_time` ("1:56 pm on 8 May, 2023", read as UTC) plus one second per
 *   turn, so turns keep their order. A session whose date is missing or unreadable continues one second after
 *   the previous session's last turn, with a warning.
 * - A turn that is not an object is skipped with a warning; a turn without text keeps an empty text.
 * - Evidence: each entry is split on `;`, `,` and spaces ("D8:6; D9:17" is two ids), then normalised
 *   ("D:11:26" → D11:26, "D30:05" → D30:5). Ids that still name no turn of the conversation (e.g. "D", or a turn
 *   that does not exist) are dropped with a warning; a question left with no evidence keeps `evidence: []` and
 *   the benchmark skips it.
 */

/** A message ready for `memory.add`, with every optional field decided by the loader. */
export interface LoadedMessage {
  id?: string
  role: string
  content: string
  conversationId: string
  timestamp?: number | string
}

/** A LoCoMo question whose answer lies in `evidence` (message ids of this conversation). */
export interface EvidenceQuestion {
  question: string
  answer: string
  /** 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial (unanswerable). */
  category: number
  /** Valid, normalised message ids (dia_ids); empty when none of the listed ids names a turn. */
  evidence: string[]
  /** The evidence exactly as written in the data. */
  rawEvidence: string[]
}

export interface LoadedConversation {
  id: string
  messages: LoadedMessage[]
  questions: EvidenceQuestion[]
}

export interface LoadedHistory {
  format: 'locomo' | 'messages'
  conversations: LoadedConversation[]
  /** Data problems the loader worked around (malformed evidence, unreadable dates). */
  warnings: string[]
}

export interface LoadOptions {
  /** What to do with a LoCoMo turn's image caption: `caption` appends it to the turn's text (default), `omit` drops it. */
  images?: 'caption' | 'omit'
}

/**
 * The messages of several conversations with ids made unique across them (`conv-26/D1:3`), for one memory
 * holding them all; a single conversation keeps its dia_ids.
 */
export function qualifiedMessages(conversations: readonly LoadedConversation[]): LoadedMessage[] {
  if (conversations.length === 1) return conversations[0].messages
  return conversations.flatMap(qualifiedConversation)
}

/** A conversation's messages with each id prefixed by the conversation's id (`conv-26/D1:3`), for a memory that may hold other conversations. */
export function qualifiedConversation(conversation: LoadedConversation): LoadedMessage[] {
  return conversation.messages.map((m) => (m.id === undefined ? m : { ...m, id: `${conversation.id}/${m.id}` }))
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']

/**
 * Epoch milliseconds (UTC) of a LoCoMo session date such as "1:56 pm on 8 May, 2023"; also accepts a 24-hour
 * time, no time at all, abbreviated month names and a missing comma. Undefined when the text is not a date.
 */
export function parseSessionDate(text: string): number | undefined {
  const match =
    /^\s*(?:(\d{1,2})[:.](\d{2})\s*(am|pm|a\.m\.|p\.m\.)?\s*(?:on\s+)?)?(\d{1,2})\s+([a-z]+)\.?,?\s+(\d{4})\s*$/i.exec(
      text,
    )
  if (match) {
    const [, hourText, minuteText, meridiem, dayText, monthText, yearText] = match
    const month = MONTHS.indexOf(monthText.slice(0, 3).toLowerCase())
    let hour = hourText === undefined ? 0 : Number(hourText)
    const minute = minuteText === undefined ? 0 : Number(minuteText)
    const day = Number(dayText)
    if (meridiem) {
      if (hour < 1 || hour > 12) return undefined
      hour = (hour % 12) + (meridiem[0].toLowerCase() === 'p' ? 12 : 0)
    }
    if (month < 0 || hour > 23 || minute > 59 || day < 1 || day > 31) return undefined
    const time = Date.UTC(Number(yearText), month, day, hour, minute)
    return new Date(time).getUTCDate() === day ? time : undefined
  }
  const fallback = Date.parse(text)
  return Number.isNaN(fallback) ? undefined : fallback
}

/** The dia_ids named by one raw evidence entry, normalised (`D:11:26` → `D11:26`, `D30:05` → `D30:5`); malformed pieces are returned as they are. */
export function splitEvidence(raw: string): string[] {
  return raw
    .split(/[\s;,]+/)
    .filter((piece) => piece.length > 0)
    .map((piece) => {
      const match = /^D:?(\d+):(\d+)$/i.exec(piece)
      return match ? `D${Number(match[1])}:${Number(match[2])}` : piece
    })
}

/** Parses already-read JSON into conversations. Throws an Error saying what is wrong when it is neither format. */
export function parseHistory(data: unknown, options: LoadOptions = {}): LoadedHistory {
  if (isLocomoHistory(data)) {
    const warnings: string[] = []
    const conversations = locomoSamples(data).map((sample, index) =>
      parseLocomoSample(sample, index, options, warnings),
    )
    return { format: 'locomo', conversations, warnings }
  }
  if (Array.isArray(data) && data.length > 0)
    return { format: 'messages', conversations: parseMessages(data), warnings: [] }
  throw new Error(
    'expected LoCoMo JSON (an array of samples with "conversation") or a non-empty array of {role, content} messages',
  )
}

/** Whether `data` is LoCoMo JSON: one sample or a non-empty array of samples, each an object with a `conversation` object. */
export function isLocomoHistory(data: unknown): boolean {
  const samples = Array.isArray(data) ? data : [data]
  return samples.length > 0 && samples.every(isLocomoSample)
}

/**
 * The samples of LoCoMo JSON (see `isLocomoHistory`), in the order `parseHistory` gives their conversations, for
 * a caller that reads more of a sample than the parser keeps (the demo names a conversation after its speakers).
 */
export function locomoSamples(data: unknown): LocomoSample[] {
  return (Array.isArray(data) ? data : [data]).filter(isLocomoSample)
}

/** One LoCoMo sample as the parser reads it; `conversation` holds `session_N` turn arrays, their `session_N_date_time` and `speaker_a`/`speaker_b`. */
export interface LocomoSample {
  sample_id?: string
  conversation: Record<string, unknown>
  qa?: { question: string; answer?: unknown; evidence?: unknown; category: number }[]
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isLocomoSample(value: unknown): value is LocomoSample {
  return isRecord(value) && isRecord(value.conversation)
}

function parseLocomoSample(
  sample: LocomoSample,
  index: number,
  options: LoadOptions,
  warnings: string[],
): LoadedConversation {
  const id = typeof sample.sample_id === 'string' ? sample.sample_id : `sample-${index + 1}`
  const sessionNumbers = Object.keys(sample.conversation)
    .map((key) => /^session_(\d+)$/.exec(key))
    .filter((match): match is RegExpExecArray => match !== null && Array.isArray(sample.conversation[match[0]]))
    .map((match) => Number(match[1]))
    .sort((a, b) => a - b)

  const messages: LoadedMessage[] = []
  const diaIds = new Set<string>()
  let lastTimestamp: number | undefined
  for (const session of sessionNumbers) {
    const dateText = sample.conversation[`session_${session}_date_time`]
    let start = typeof dateText === 'string' ? parseSessionDate(dateText) : undefined
    if (start === undefined) {
      warnings.push(
        `${id}: session ${session} has no readable date (${JSON.stringify(dateText)}); its turns follow the previous session`,
      )
      start = lastTimestamp === undefined ? 0 : lastTimestamp + 1000
    }
    const turns = sample.conversation[`session_${session}`] as unknown[]
    turns.forEach((turn, turnIndex) => {
      const timestamp = start + turnIndex * 1000
      lastTimestamp = timestamp
      if (!isRecord(turn)) {
        warnings.push(`${id}: turn ${turnIndex + 1} of session ${session} is not an object; skipped`)
        return
      }
      const diaId = typeof turn.dia_id === 'string' ? turn.dia_id : `D${session}:${turnIndex + 1}`
      diaIds.add(diaId)
      const speaker = typeof turn.speaker === 'string' && turn.speaker.trim() !== '' ? turn.speaker : undefined
      if (speaker === undefined) warnings.push(`${id}: turn ${diaId} has no speaker; read as "speaker"`)
      const caption =
        options.images !== 'omit' && typeof turn.blip_caption === 'string' ? ` [shared ${turn.blip_caption}]` : ''
      messages.push({
        id: diaId,
        role: speaker ?? 'speaker',
        content: `${turn.text ?? ''}${caption}`,
        conversationId: id,
        timestamp,
      })
    })
  }

  const questions = (Array.isArray(sample.qa) ? sample.qa.filter(isRecord) : []).map((qa): EvidenceQuestion => {
    const rawEvidence = Array.isArray(qa.evidence)
      ? qa.evidence.filter((entry): entry is string => typeof entry === 'string')
      : []
    const evidence: string[] = []
    for (const diaId of rawEvidence.flatMap(splitEvidence)) {
      if (!diaIds.has(diaId))
        warnings.push(`${id}: evidence ${JSON.stringify(diaId)} of "${qa.question}" names no turn; dropped`)
      else if (!evidence.includes(diaId)) evidence.push(diaId)
    }
    return { question: qa.question, answer: String(qa.answer ?? ''), category: qa.category, evidence, rawEvidence }
  })
  return { id, messages, questions }
}

function parseMessages(items: unknown[]): LoadedConversation[] {
  const byConversation = new Map<string, LoadedMessage[]>()
  items.forEach((item, index) => {
    if (!isRecord(item) || typeof item.role !== 'string' || typeof item.content !== 'string') {
      throw new Error(`message ${index} must be an object with string "role" and "content"`)
    }
    const conversationId = typeof item.conversationId === 'string' ? item.conversationId : 'default'
    const message: LoadedMessage = { role: item.role, content: item.content, conversationId }
    if (typeof item.id === 'string') message.id = item.id
    if (typeof item.timestamp === 'number' || typeof item.timestamp === 'string') message.timestamp = item.timestamp
    const messages = byConversation.get(conversationId) ?? []
    messages.push(message)
    byConversation.set(conversationId, messages)
  })
  return [...byConversation].map(([id, messages]) => ({ id, messages, questions: [] }))
}
