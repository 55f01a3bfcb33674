import type { MessageInput } from '../../src/types'
import { seededRandom } from '../../worker/util/seeded-random'
import { mixSeed } from './synthetic-random'

/**
 * A deterministic chat history for the performance benchmark: conversations drift through topics in episodes
 * of a few turns, every sentence is unique, and texts mix common English with topic words so BM25 behaves as
 * on real chat (stop words match almost everything, topic words match a few hundred sentences).
 * Topic words are generated pseudo-words; the texts are labelled synthetic wherever they are reported.
 */
export interface SyntheticSentence {
  /** 0-based position in the history; the i-th sentence Sift stores. */
  index: number
  messageId: string
  /** Offset of the sentence in its message's content (what `ContextItem.start` reports). */
  start: number
  text: string
  topic: number
  subtopic: number
}

export interface SyntheticHistory {
  messages: (MessageInput & { id: string; conversationId: string; timestamp: number })[]
  sentences: SyntheticSentence[]
  /** Index into `sentences` of each message's first sentence; `messageStarts[messages.length]` = sentences.length. */
  messageStarts: number[]
}

export interface SyntheticQuery {
  index: number
  /** Request text: matched lexically, and embedded for real in the "with query" runs. */
  text: string
  topic: number
  subtopic: number
}

export interface TopicShape {
  topics: number
  subtopicsPerTopic: number
}

export const DEFAULT_TOPIC_SHAPE: TopicShape = { topics: 300, subtopicsPerTopic: 8 }

/** Sentences per message, repeating: 20 sentences per 10 messages, so every multiple of 20 is a message boundary. */
const SENTENCES_PER_MESSAGE = [1, 3, 2, 2, 3, 1, 2, 2, 3, 1]
const MESSAGES_PER_CONVERSATION = 240
const START_TIME = Date.UTC(2023, 0, 2, 9, 0, 0)

const subjects = [
  'I',
  'We',
  'My sister',
  'The landlord',
  'Our team',
  'My doctor',
  'The neighbours',
  'Your friend',
  'The coach',
  'My manager',
  'Grandpa',
  'The kids',
]
const pastVerbs = [
  'mentioned',
  'fixed',
  'ordered',
  'cancelled',
  'compared',
  'booked',
  'tried',
  'measured',
  'painted',
  'reviewed',
  'packed',
  'returned',
  'cleaned',
  'tested',
  'planned',
  'moved',
]
const verbs = [
  'check',
  'buy',
  'move',
  'replace',
  'schedule',
  'ask about',
  'write down',
  'look at',
  'clean',
  'test',
  'pack',
  'return',
  'discuss',
  'measure',
  'share',
  'skip',
]
const places = [
  'at home',
  'in the garage',
  'near the station',
  'at the office',
  'in the garden',
  'downtown',
  'at the clinic',
  'on the balcony',
  'in the kitchen',
  'at the gym',
  'by the lake',
  'at school',
  'in the car',
  'upstairs',
  'at the market',
  'in the shed',
]
const times = [
  'last week',
  'yesterday',
  'on Monday',
  'before lunch',
  'next month',
  'tonight',
  'this weekend',
  'in March',
  'after work',
  'tomorrow morning',
  'last summer',
  'on Friday',
  'soon',
  'every day',
  'twice a week',
  'since January',
]
const outcomes = [
  'worked fine',
  'broke again',
  'cost too much',
  'took forever',
  'was worth it',
  'made a mess',
  'surprised everyone',
  'went well',
  'still smells odd',
  'needs another look',
  'was a disaster',
  'felt great',
]
const adjectives = [
  'old',
  'new',
  'cheap',
  'heavy',
  'noisy',
  'tiny',
  'shiny',
  'broken',
  'spare',
  'huge',
  'quiet',
  'rusty',
  'fancy',
  'simple',
  'strange',
  'bright',
]
const relatives = [
  'mother',
  'uncle',
  'cousin',
  'boss',
  'roommate',
  'partner',
  'teacher',
  'brother',
  'aunt',
  'neighbour',
]
const questionStarts = [
  'What did we say about',
  'Remind me what happened with',
  'Do you remember the',
  'What was the plan for',
  'Tell me again about',
  'Where did we leave the',
]

const syllables = [
  'ka',
  'lo',
  'mi',
  'ren',
  'ta',
  'vo',
  'shi',
  'gal',
  'dor',
  'nu',
  'pel',
  'sar',
  'tev',
  'qui',
  'bra',
  'zel',
  'mon',
  'fi',
  'rak',
  'lum',
  'os',
  'ter',
  'vin',
  'ha',
]

const templates: ((w: SentenceWords) => string)[] = [
  (w) => `${w.subject} ${w.pastVerb} the ${w.topicA} ${w.place} and it ${w.outcome}.`,
  (w) => `Did you ever ${w.verb} the ${w.subtopic} ${w.topicB} ${w.time}?`,
  (w) => `I think the ${w.topicA} needs a ${w.adjective} ${w.topicB} before ${w.time}.`,
  (w) => `We should ${w.verb} the ${w.subtopic} with the ${w.topicA} ${w.place}.`,
  (w) => `My ${w.relative} said the ${w.topicB} was ${w.adjective} ${w.time}.`,
  (w) => `Remember to ${w.verb} ${w.count} ${w.topicA} for the ${w.subtopic}.`,
  (w) => `The ${w.adjective} ${w.topicA} ${w.pastVerb} near the ${w.subtopic} ${w.time}, which ${w.outcome}.`,
  (w) => `Honestly, the ${w.topicB} and the ${w.subtopic} ${w.outcome} ${w.place}.`,
  (w) => `${w.subject} ${w.pastVerb} ${w.count} ${w.adjective} ${w.topicB} ${w.time}.`,
  (w) => `Can we ${w.verb} the ${w.topicA} ${w.place} ${w.time}?`,
  (w) =>
    `It turns out the ${w.subtopic} ${w.topicA} ${w.outcome}, so ${w.subject.toLowerCase() === 'i' ? 'I' : w.subject.toLowerCase()} ${w.pastVerb} it ${w.time}.`,
  (w) => `Thanks, the note about the ${w.topicB} ${w.place} helps a lot.`,
]

interface SentenceWords {
  subject: string
  pastVerb: string
  verb: string
  place: string
  time: string
  outcome: string
  adjective: string
  relative: string
  count: number
  topicA: string
  topicB: string
  subtopic: string
}

/** Words that name topics (6 each) and subtopics (1 each): generated pseudo-words, unique, deterministic. */
export class TopicVocabulary {
  readonly topicWords: string[][]
  readonly subtopicWords: string[][]

  constructor(
    readonly shape: TopicShape = DEFAULT_TOPIC_SHAPE,
    seed = 7,
  ) {
    const random = seededRandom(seed)
    const taken = new Set<string>()
    const word = (): string => {
      for (;;) {
        const parts = 2 + Math.floor(random() * 2)
        let candidate = ''
        for (let i = 0; i < parts; i++) candidate += syllables[Math.floor(random() * syllables.length)]
        if (!taken.has(candidate)) {
          taken.add(candidate)
          return candidate
        }
      }
    }
    this.topicWords = Array.from({ length: shape.topics }, () => Array.from({ length: 6 }, word))
    this.subtopicWords = Array.from({ length: shape.topics }, () =>
      Array.from({ length: shape.subtopicsPerTopic }, word),
    )
  }
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]
}

/** Topics are Zipf-like: a few come up often, most rarely, as in a real person's chats. */
function zipfTopic(random: () => number, topics: number): number {
  return Math.min(topics - 1, Math.floor((topics + 1) ** random() - 1))
}

/** The first messages of the history holding at least `sentenceCount` sentences (exactly that many when it is a multiple of 20). */
export function generateHistory(
  sentenceCount: number,
  vocabulary = new TopicVocabulary(),
  seed = 11,
): SyntheticHistory {
  const random = seededRandom(seed)
  const { topics } = vocabulary.shape
  const history: SyntheticHistory = { messages: [], sentences: [], messageStarts: [] }
  const seen = new Set<string>()
  let topic = 0
  let episodeLeft = 0
  for (let m = 0; history.sentences.length < sentenceCount; m++) {
    if (episodeLeft-- <= 0) {
      topic = zipfTopic(random, topics)
      episodeLeft = 3 + Math.floor(random() * 10)
    }
    const conversation = Math.floor(m / MESSAGES_PER_CONVERSATION)
    const id = `m${m}`
    history.messageStarts.push(history.sentences.length)
    const parts: string[] = []
    let offset = 0
    for (let s = 0; s < SENTENCES_PER_MESSAGE[m % SENTENCES_PER_MESSAGE.length]; s++) {
      const subtopic = Math.floor(random() * vocabulary.shape.subtopicsPerTopic)
      let text: string
      do text = sentenceText(random, vocabulary, topic, subtopic)
      while (seen.has(text))
      seen.add(text)
      history.sentences.push({ index: history.sentences.length, messageId: id, start: offset, text, topic, subtopic })
      parts.push(text)
      offset += text.length + 1
    }
    history.messages.push({
      id,
      role: m % 2 === 0 ? 'user' : 'assistant',
      content: parts.join(' '),
      conversationId: `c${conversation}`,
      timestamp: START_TIME + m * 90_000 + conversation * 86_400_000,
    })
  }
  history.messageStarts.push(history.sentences.length)
  return history
}

function sentenceText(random: () => number, vocabulary: TopicVocabulary, topic: number, subtopic: number): string {
  const words = vocabulary.topicWords[topic]
  const w: SentenceWords = {
    subject: pick(random, subjects),
    pastVerb: pick(random, pastVerbs),
    verb: pick(random, verbs),
    place: pick(random, places),
    time: pick(random, times),
    outcome: pick(random, outcomes),
    adjective: pick(random, adjectives),
    relative: pick(random, relatives),
    count: 2 + Math.floor(random() * 40),
    topicA: pick(random, words),
    topicB: pick(random, words),
    subtopic: vocabulary.subtopicWords[topic][subtopic],
  }
  return pick(random, templates)(w)
}

/** Requests about topics that occur in the first `withinSentences` sentences of `history`, so every size has matches. */
export function generateQueries(
  count: number,
  history: SyntheticHistory,
  withinSentences: number,
  vocabulary = new TopicVocabulary(),
  seed = 13,
): SyntheticQuery[] {
  const random = seededRandom(mixSeed(seed, count))
  const pool = history.sentences.slice(0, Math.min(withinSentences, history.sentences.length))
  return Array.from({ length: count }, (_, index) => {
    const { topic, subtopic } = pool[Math.floor(random() * pool.length)]
    const words = vocabulary.topicWords[topic]
    const text = `${pick(random, questionStarts)} ${vocabulary.subtopicWords[topic][subtopic]} ${pick(random, words)} ${pick(random, places)}?`
    return { index, text, topic, subtopic }
  })
}
