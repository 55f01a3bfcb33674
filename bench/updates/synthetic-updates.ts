import type { MessageInput } from '../../src/types'
import { seededRandom } from '../../worker/util/seeded-random'

/**
 * A synthetic chat history in which the user states facts and, much later, revises them ("I drive a Polo." … "I
 * sold the Polo; now I drive a Kia."), among chit-chat; for each fact a question about its current value. Used by
 * `bench/updates/update-recall.ts` to measure how often a context holds a stale value without the newer one.
 */
export interface UpdateCase {
  question: string
  /** Message id of the revision: the turn that says what stands. */
  newer: string
  /** Message id of the first statement, superseded by `newer`. */
  stale: string
}

export interface UpdateHistory {
  conversationId: string
  messages: (MessageInput & { id: string; timestamp: number })[]
  cases: UpdateCase[]
}

interface Fact {
  question: string
  first: (value: string) => string
  /** The revision, worded unlike the question more often than not: people rarely restate a fact in its first words. */
  revised: (old: string, value: string) => string
  /** Someone else's fact on the same subject: it shares the question's words and answers nothing. */
  distractor: (value: string) => string
  values: readonly string[]
}

const FACTS: readonly Fact[] = [
  {
    question: 'Which city do I live in?',
    first: (v) => `I live in ${v} these days, near the old harbour.`,
    revised: (_, v) => `We finally moved to ${v} last month!`,
    distractor: (v) => `My brother lives in ${v} and loves it.`,
    values: ['Porto', 'Lisbon', 'Leeds', 'Bristol', 'Ghent', 'Lyon', 'Turin', 'Graz'],
  },
  {
    question: 'What is my job?',
    first: (v) => `My job: I work as a ${v} at the city hospital.`,
    revised: (o, v) => `I handed in my notice as ${o} and started as a ${v} on Monday.`,
    distractor: (v) => `My cousin just got a job as a ${v}.`,
    values: ['nurse', 'radiographer', 'pharmacist', 'porter', 'midwife', 'paramedic', 'dietitian'],
  },
  {
    question: 'What car do I drive?',
    first: (v) => `I drive a ${v}, the car is old but reliable.`,
    revised: (o, v) => `Sold the ${o} at last, picked up a ${v} yesterday.`,
    distractor: (v) => `My neighbour drives a ${v} and parks it badly.`,
    values: ['Polo', 'Corsa', 'Fiesta', 'Clio', 'Yaris', 'Octavia', 'Golf'],
  },
  {
    question: 'On which days do I go to the gym?',
    first: (v) => `I go to the gym on ${v} after work.`,
    revised: (_, v) => `New routine: weights on ${v} from now on.`,
    distractor: (v) => `My flatmate goes to the gym on ${v}.`,
    values: ['Mondays', 'Tuesdays', 'Wednesdays', 'Thursdays', 'Fridays', 'Saturdays'],
  },
  {
    question: 'What is our cat called?',
    first: (v) => `Our cat is called ${v} and she sleeps all day.`,
    revised: (o, v) => `The kids insisted, so ${o} is ${v} from now on.`,
    distractor: (v) => `The cat next door is called ${v}.`,
    values: ['Misty', 'Pepper', 'Luna', 'Olive', 'Mochi', 'Biscuit', 'Tilly'],
  },
  {
    question: 'What phone do I use?',
    first: (v) => `I use a ${v} phone with a cracked screen.`,
    revised: (o, v) => `The ${o} finally died; got myself a ${v}.`,
    distractor: (v) => `My dad uses a ${v} phone and hates it.`,
    values: ['Pixel', 'Galaxy', 'iPhone', 'Fairphone', 'Moto'],
  },
  {
    question: 'Which language am I learning?',
    first: (v) => `I am learning ${v} with an app every evening.`,
    revised: (o, v) => `Dropped ${o}, ${v} lessons start next week.`,
    distractor: (v) => `My daughter is learning ${v} at school.`,
    values: ['Spanish', 'Japanese', 'German', 'Italian', 'Korean', 'Dutch'],
  },
  {
    question: 'What instrument do I play?',
    first: (v) => `I play the ${v} in a small band.`,
    revised: (_, v) => `Bought a second-hand ${v} and I am hooked, the old one is for sale.`,
    distractor: (v) => `My friend plays the ${v} in an orchestra.`,
    values: ['guitar', 'drums', 'violin', 'cello', 'trumpet', 'piano'],
  },
  {
    question: 'Who is my manager?',
    first: (v) => `My manager is ${v}, who is very strict about deadlines.`,
    revised: (o, v) => `${o} left the company; I report to ${v} now.`,
    distractor: (v) => `My wife's manager is ${v}.`,
    values: ['Hannah', 'Marcus', 'Priya', 'Tomasz', 'Ingrid', 'Kwame'],
  },
  {
    question: 'Which football team do I support?',
    first: (v) => `I support ${v}, I never miss a match.`,
    revised: (_, v) => `Got a season ticket for ${v}, done with my old club.`,
    distractor: (v) => `My uncle supports ${v}.`,
    values: ['Arsenal', 'Celtic', 'Benfica', 'Ajax', 'Napoli', 'Sevilla'],
  },
  {
    question: 'What do I usually have for breakfast?',
    first: (v) => `For breakfast I usually have ${v}.`,
    revised: (o, v) => `No more ${o} in the morning, it's ${v} every day now.`,
    distractor: (v) => `The kids usually have ${v} for breakfast.`,
    values: ['porridge', 'toast', 'yoghurt', 'eggs', 'pancakes', 'muesli'],
  },
  {
    question: 'Where do I go on holiday this year?',
    first: (v) => `This year we go on holiday to ${v}.`,
    revised: (o, v) => `Cancelled ${o}, booked ${v} instead!`,
    distractor: (v) => `My parents go on holiday to ${v} every year.`,
    values: ['Crete', 'Norway', 'Sicily', 'Iceland', 'Morocco', 'Croatia'],
  },
]

const SUBJECTS = [
  'the rain',
  'a documentary about octopuses',
  'the neighbours',
  'a lentil recipe',
  'my sister',
  'a novel about a lighthouse',
  'three meetings',
  'a board game',
  'the late train',
  'a new bakery',
  'the hallway paint',
  'soft-boiled eggs',
  'a history podcast',
  'the weeds',
  'spilled coffee',
  'the dentist',
  'a jigsaw puzzle',
  'the bins',
  'a quiz night',
  'the heating',
]
const TAKES = [
  'I keep thinking about',
  'Today was mostly about',
  'Quick one about',
  'Still annoyed about',
  'Had a laugh about',
  'Any tips on',
  'Remind me later about',
  'I read something about',
]
const ENDINGS = [
  'this morning.',
  'all afternoon.',
  'again, honestly.',
  'before dinner.',
  'with the kids.',
  'at work.',
  'on the way home.',
  'over the weekend.',
]
const REPLIES = [
  'That sounds like a lot to deal with!',
  'Good to know, thanks for telling me.',
  'Here is an idea you might like.',
  'I hope the rest of the week is calmer.',
  'That is a lovely detail.',
  'Let me know how it goes.',
]

/**
 * `conversations` histories, each with `factsPerConversation` facts (drawn in turn from `FACTS`, values at random)
 * stated early and revised `gapTurns` or more turns later, with chit-chat between; deterministic for a `seed`.
 */
export function syntheticUpdates(
  options: { conversations?: number; factsPerConversation?: number; gapTurns?: number; seed?: number } = {},
): UpdateHistory[] {
  const { conversations = 6, factsPerConversation = 8, gapTurns = 400, seed = 13 } = options
  const random = seededRandom(seed)
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]
  const start = Date.UTC(2024, 0, 1)
  return Array.from({ length: conversations }, (_, c) => {
    const conversationId = `updates-${c + 1}`
    const facts = Array.from({ length: factsPerConversation }, (_, f) => FACTS[(c * 5 + f) % FACTS.length])
    const values = facts.map((fact) => {
      const first = pick(fact.values)
      let revised = pick(fact.values)
      while (revised === first) revised = pick(fact.values)
      return { first, revised }
    })
    // User turns: each fact's first statement in the first stretch, its revision after the gap, chit-chat elsewhere.
    const userTurns = gapTurns + factsPerConversation * 3 + 10
    const firstAt = new Map<number, number>()
    const revisedAt = new Map<number, number>()
    const distractorAt = new Map<number, number>()
    facts.forEach((_, f) => {
      firstAt.set(2 + f * 3, f)
      distractorAt.set(Math.floor(gapTurns / 2) + f * 3, f)
      revisedAt.set(gapTurns + f * 3, f)
    })
    const messages: UpdateHistory['messages'] = []
    const cases: UpdateCase[] = facts.map((fact) => ({ question: fact.question, newer: '', stale: '' }))
    for (let turn = 0; turn < userTurns; turn++) {
      const id = `${conversationId}-u${turn}`
      const timestamp = start + turn * 6 * 3_600_000
      const stated = firstAt.get(turn)
      const revised = revisedAt.get(turn)
      const other = distractorAt.get(turn)
      let content = `${pick(TAKES)} ${pick(SUBJECTS)} ${pick(ENDINGS)}`
      if (other !== undefined) {
        content = facts[other].distractor(pick(facts[other].values))
      } else if (stated !== undefined) {
        content = facts[stated].first(values[stated].first)
        cases[stated].stale = id
      } else if (revised !== undefined) {
        content = facts[revised].revised(values[revised].first, values[revised].revised)
        cases[revised].newer = id
      }
      messages.push({ id, role: 'user', content, conversationId, timestamp })
      messages.push({
        id: `${conversationId}-a${turn}`,
        role: 'assistant',
        content: pick(REPLIES),
        conversationId,
        timestamp: timestamp + 60_000,
      })
    }
    return { conversationId, messages, cases }
  })
}
