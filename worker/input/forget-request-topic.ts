import { type SentenceSpan, splitSentences } from '../../src/core/split-sentences'
import { detectLanguage } from '../text/language-detection'
import { contentTermCount, type Language, withoutWords } from '../text/text-analysis'
import { type ClauseCues, clauseCues, cueLanguages, joinsPrevious } from './forget-cue-score'
import { FORGET_TUNING, type ForgetTuning } from './forget-tuning'

/** Where a sentence's clauses part: a dash between spaces, a semicolon, a colon or a comma before a space (captured). */
const CLAUSE_BREAK = /(\s+[—–-]\s+|[;:,]\s+)/

/** What a message asks to forget: the sentences that ask it, and the topic they name. */
export interface ForgetRequestReading {
  /** What is ranked: the request's topic, or the whole message (trimmed) when it holds no request or names nothing. */
  topic: string
  /** The sentences read as asking to forget or retract, in order, with their offsets in the message; none without a request. */
  sentences: SentenceSpan[]
}

/** A clause of the message, with its place and its cues. */
interface Clause {
  text: string
  sentence: number
  cues: ClauseCues
}

/**
 * What a "forget that I …" request is about, so that it ranks stored messages by their topic rather than by the words
 * of asking ("forget" would match every message that talks about forgetting), and not by the news and questions
 * around it, which would outrank the statement to forget. In stages:
 * 1. the message's clauses (its sentences, cut at full stops too, split at dashes, semicolons, colons and commas),
 *    each scored by how much it reads like a request (`clauseCues`, in the message's language and English);
 * 2. the request: every sentence whose best clause scores `minRequestScore` or more;
 * 3. each request sentence's topic: its cue clauses with their frame words taken out, and the clauses before them
 *    ("Please forget that I said I'm allergic to kiwi — it's my nephew who is" → "I said I'm allergic to kiwi", the
 *    clause after the dash says what is true now);
 * 4. when the request's sentences together name fewer than `minTopicTerms` content words ("Please wipe it."), the
 *    clause or sentence each points at (`pointedAt`).
 * A message without a request sentence, or whose request names no topic at all ("forget it"), is given back as it
 * is, trimmed: it is then the best description there is.
 */
export function readForgetRequest(request: string, tuning: ForgetTuning = FORGET_TUNING): ForgetRequestReading {
  const trimmed = request.trim()
  const language = detectLanguage(trimmed)
  const spans = splitSentences(request).flatMap(atFullStops)
  const clauses = messageClauses(spans, cueLanguages(language), tuning)
  const requestSentences = new Set(
    clauses.filter((clause) => clause.cues.score >= tuning.minRequestScore).map((clause) => clause.sentence),
  )
  const owns = [...requestSentences].map((sentence) => ownTopic(clauses, sentence))
  // A request sentence that names nothing ("Can you forget it?") points at what the others name, when they do.
  const named = contentTermCount(owns.flatMap((own) => own.texts).join(' '), language) >= tuning.minTopicTerms
  const parts = owns.flatMap((own) =>
    named ? own.texts : withPointedAt(clauses, own, requestSentences, language, tuning),
  )
  const topic = parts.join(' ')
  return {
    topic: contentTermCount(topic, language) === 0 ? trimmed : topic,
    sentences: [...requestSentences].map((sentence) => spans[sentence]),
  }
}

/** What a "forget that I …" request is about (`readForgetRequest`'s topic). */
export function forgetRequestTopic(request: string, tuning: ForgetTuning = FORGET_TUNING): string {
  return readForgetRequest(request, tuning).topic
}

/** Where a sentence ends that the sentence splitter keeps whole: a full stop, question or exclamation mark and a space. */
const FULL_STOP = /(?<=[.!?])\s+/u

/**
 * A sentence span cut at its full stops: a message written in lower case ("ok so. drop that bit. whats new") is one
 * sentence to the splitter, which ends a sentence only before a capital, and its request is one of its parts.
 */
function atFullStops(span: SentenceSpan): SentenceSpan[] {
  const parts: SentenceSpan[] = []
  let from = 0
  for (const piece of span.text.split(FULL_STOP)) {
    const at = span.text.indexOf(piece, from)
    parts.push({ text: piece, start: span.start + at, end: span.start + at + piece.length })
    from = at + piece.length
  }
  return parts.filter((part) => part.text !== '')
}

/** Stage 1: the message's clauses in order, with their cues. */
function messageClauses(
  spans: readonly SentenceSpan[],
  languages: readonly Language[],
  tuning: ForgetTuning,
): Clause[] {
  return spans.flatMap((span, sentence) =>
    sentenceClauses(span.text, languages).map((text) => ({
      text,
      sentence,
      cues: clauseCues(text, languages, tuning),
    })),
  )
}

/** A sentence's clauses: split at `CLAUSE_BREAK`, except a comma before a clause that continues it (`joinsPrevious`). */
function sentenceClauses(sentence: string, languages: readonly Language[]): string[] {
  // Pieces and the breaks between them alternate: piece, break, piece …
  const parts = sentence.split(CLAUSE_BREAK)
  const clauses: string[] = []
  for (let at = 0; at < parts.length; at += 2) {
    const [piece, before] = [parts[at], parts[at - 1]]
    if (piece.trim() === '') continue
    if (before?.startsWith(',') && clauses.length > 0 && joinsPrevious(piece, languages))
      clauses[clauses.length - 1] += `${before}${piece}`
    else clauses.push(piece)
  }
  return clauses
}

/** A request sentence's own topic: the clauses it takes (`taken`, their places, in order) without their frame words. */
interface OwnTopic {
  taken: number[]
  texts: string[]
}

/**
 * Stage 3: one request sentence's own topic parts: its cue clauses without their frame words, and the clauses before
 * the first of them, where a topic is often put first ("Le vertige, franchement, ça n'existe plus", "turns out
 * coriander is fine now, so drop that bit"); not those after the last, which say what is true now.
 */
function ownTopic(clauses: readonly Clause[], sentence: number): OwnTopic {
  const cued = clauses.flatMap((clause, at) => (clause.sentence === sentence && clause.cues.score > 0 ? [at] : []))
  const fronted = clauses.flatMap((clause, at) => (clause.sentence === sentence && at < cued[0] ? [at] : []))
  const taken = [...fronted, ...cued]
  return { taken, texts: taken.map((at) => topicText(clauses[at])).filter((text) => text !== '') }
}

/** Stage 4, when the request names too little: a request sentence's own topic, with the neighbour it points at. */
function withPointedAt(
  clauses: readonly Clause[],
  own: OwnTopic,
  requestSentences: ReadonlySet<number>,
  language: Language | undefined,
  tuning: ForgetTuning,
): string[] {
  if (contentTermCount(own.texts.join(' '), language) >= tuning.minTopicTerms) return own.texts
  const pointed = pointedAt(clauses, own.taken[0] - 1, own.taken[own.taken.length - 1] + 1, requestSentences)
  if (pointed === undefined) return own.texts
  const texts = pointed.clauses.map(topicText).filter((text) => text !== '')
  return pointed.before ? [...texts, ...own.texts] : [...own.texts, ...texts]
}

/**
 * What a request that names too little points at, nearest first: a clause of its own sentence (the one before it, else
 * the one after: "Scratch what I said about Hakone, we cancelled the ryokan"), else the whole sentence before it,
 * else the one after; never a request sentence, whose topic is taken already.
 */
function pointedAt(
  clauses: readonly Clause[],
  before: number,
  after: number,
  requestSentences: ReadonlySet<number>,
): { clauses: Clause[]; before: boolean } | undefined {
  const sentence = clauses[before + 1].sentence
  const inSentence = (at: number) => clauses[at]?.sentence === sentence
  if (inSentence(before)) return { clauses: [clauses[before]], before: true }
  if (inSentence(after)) return { clauses: [clauses[after]], before: false }
  const whole = (at: number) => {
    const other = clauses[at]?.sentence
    return other === undefined || requestSentences.has(other)
      ? undefined
      : clauses.filter((clause) => clause.sentence === other)
  }
  const previous = whole(before)
  if (previous) return { clauses: previous, before: true }
  const next = whole(after)
  return next && { clauses: next, before: false }
}

/** A clause without its frame words, its spacing and edge punctuation tidied. */
function topicText(clause: Clause): string {
  return withoutWords(clause.text, clause.cues.frame)
    .replace(/(?<![\p{L}\p{N}])['’]|['’](?![\p{L}\p{N}])/gu, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[\s,.;:!?¡¿—–-]+|[\s,.;:!?¡¿—–-]+$/g, '')
    .replace(/\s+([,.;:!?])/g, '$1')
    .trim()
}
