import { splitSentences } from '../../src/core/split-sentences'
import { contentTermCount } from '../text/text-analysis'
import { FORGET_CUES } from './forget-cues'

/** The cues are English (`FORGET_CUES`): a topic found by them is counted in English words. */
const CUE_LANGUAGE = 'en'

/** Greetings and fillers a request may open with: "Hey, please …", "OK so …". */
const OPENING = /^(?:(?:hey|hi|ok|okay|so|and|also|now|then|please|pls|kindly)\b[\s,.!:;-]*)+/i
/** Asking someone to do it: "can you", "I'd like you to", each optionally followed by "please". */
const ASKING =
  /^(?:(?:can|could|would|will)\s+you\s+|i(?:\s+(?:want|need|would\s+like)|['’]d\s+like)\s+you\s+to\s+)?(?:please\s+)?/i
/** The request itself. */
const FORGET =
  /^(?:forget|delete|remove|erase|unlearn|stop\s+remembering|(?:don['’]?t|do\s+not|no\s+longer)\s+remember)\b\s*/i
/** What is to be forgotten, before the topic: "everything I told you about", "the fact that", "what I said about". */
const POINTER =
  /^(?:(?:everything|anything|all|what|the\s+(?:fact|part|bit|thing|message|messages|stuff))\s+)?(?:(?:that|where|when)\s+)?(?:i\s+(?:said|told\s+you|mentioned|wrote|shared)(?:\s+|$))?(?:(?:about|that|where|regarding|on|of)\s+)?/i
/** Trailing politeness and punctuation: "…, please.", "…!" */
const CLOSING = /(?:[\s,]+(?:please|pls|thanks|thank\s+you))?[\s.!?,;:]*$/i

/**
 * What a "forget that I …" request is about, so that it ranks stored messages by their topic rather than by the words
 * of asking ("forget" would match every message that talks about forgetting). In a message of several sentences the
 * request is found by its cues (`FORGET_CUES`: "please forget …", "I no longer …"), and only those sentences are
 * kept, the news and questions around them dropped, since they would outrank the statement to forget; a cue sentence
 * that names no topic of its own brings the sentence before it. Each kept sentence has its phrasing ("Please forget
 * that", "Can you delete what I said about", "isn't true anymore") stripped. A text without any cue, or that asks
 * without naming a topic ("forget it"), is given back as it is, trimmed: it is then the best description there is.
 */
export function forgetRequestTopic(request: string): string {
  const trimmed = request.trim()
  const sentences = splitSentences(trimmed).map((span) => span.text)
  const cued = sentences.map(isCueSentence)
  const parts: string[] = []
  sentences.forEach((sentence, i) => {
    if (!cued[i]) return
    const topic = sentenceTopic(sentence)
    const previous = sentences[i - 1]
    if (contentTermCount(topic, CUE_LANGUAGE) < FORGET_CUES.minTopicTerms && previous !== undefined && !cued[i - 1])
      parts.push(previous)
    if (topic !== '') parts.push(topic)
  })
  const topic = parts.join(' ')
  return contentTermCount(topic, CUE_LANGUAGE) === 0 ? trimmed : topic
}

/** Whether a sentence asks to forget something or says that something no longer holds. */
function isCueSentence(sentence: string): boolean {
  return [...FORGET_CUES.asking, ...FORGET_CUES.retracting].some((cue) => cue.test(sentence))
}

/** Where a sentence's clauses part: a dash between spaces, or a semicolon. */
const CLAUSE_BREAK = /\s+[—–-]\s+|;\s*/

/**
 * A cue sentence's topic: its cue clauses without their phrasing ("Please forget that I said I'm allergic to kiwi —
 * it's my nephew who is" → "I'm allergic to kiwi"), since the clause after a dash usually says why or what is true
 * now; the whole sentence when its cue clauses name no topic ("I don't hate coriander anymore — you can drop it").
 */
function sentenceTopic(sentence: string): string {
  const clauses = sentence.split(CLAUSE_BREAK)
  const cueClauses = clauses.length > 1 ? clauses.filter(isCueSentence).map(withoutPhrasing).join(' ') : ''
  return contentTermCount(cueClauses, CUE_LANGUAGE) >= FORGET_CUES.minTopicTerms
    ? cueClauses
    : withoutPhrasing(sentence)
}

/** A sentence or clause without its request phrasing: a leading "forget …" parsed, any other cue phrasing cut out. */
function withoutPhrasing(sentence: string): string {
  const parsed = leadingRequestTopic(sentence)
  const rest = parsed ?? sentence
  const stripped = FORGET_CUES.phrasing.reduce((text, phrase) => text.replace(phrase, ' '), rest)
  return stripped
    .replace(/\s+/g, ' ')
    .replace(/^[\s,.;:!?—–-]+|[\s,.;:!?—–-]+$/g, '')
    .replace(/\s+([,.;:!?])/g, '$1')
    .trim()
}

/** "Please forget that I smoke" → "I smoke": the topic of a sentence that opens with the request; else undefined. */
function leadingRequestTopic(sentence: string): string | undefined {
  let rest = sentence.replace(OPENING, '').replace(ASKING, '')
  const verb = FORGET.exec(rest)
  if (!verb) return undefined
  rest = rest.slice(verb[0].length).replace(POINTER, '').replace(CLOSING, '')
  return rest === '' || /^(?:it|this|that|all|everything)$/i.test(rest) ? '' : rest
}
