// The hand-written update set (`bench/updates/update-set.json`, issue 31): long user/assistant chats whose planted
// facts change (several phrasings, inside a long turn of other news, stated by the assistant and confirmed, changed
// twice) and controls never revised but talked about again. Per half (tune / held-out), budget and mode, for the
// question about each fact's current value: the latest value in the context; a stale value there unmarked; the
// latest there with every stale line marked or left out; and the share of contexts marking a line never revised
// (false marks), on changed facts and on controls.
// `--set update-set-third.json` reads the third set instead (two held-out chats written before the revisions' linking
// was changed, issue 31), a file beside this one in the same format.
//   npx tsx bench/updates/update-set-run.ts [--set FILE] [--budgets 2000,8000] [--modes default,off,on] [--filler 20] [--examples] [--tune NAME=VALUE]...
import { readFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { createMemory } from '../../src/node'
import type { BuildContextOptions, Context, MessageInput } from '../../src/types'
import { seededRandom } from '../../worker/util/seeded-random'
import { DEFAULT_EMBEDDING_CACHE_DIR } from '../../tools/embedding-cache-dir'

interface SetConversation {
  id: string
  split: string
  sessions: [string, string][][]
  facts: { question: string; values: string[] }[]
}
interface UpdateSet {
  conversations: SetConversation[]
  acknowledgements: string[]
  filler: [string, string][]
}

const { values: args } = parseArgs({
  options: {
    set: { type: 'string', default: 'update-set.json' },
    budgets: { type: 'string', default: '2000,8000' },
    modes: { type: 'string', default: 'default,off,on' },
    filler: { type: 'string', default: '20' },
    examples: { type: 'boolean', default: false },
    tune: { type: 'string', multiple: true, default: [] },
  },
})
// `--tune NAME=VALUE`: a selection constant replaced (the Node entry's internal `tuning` option), for the sweeps.
const tuning = Object.fromEntries(
  args.tune.map((pair) => {
    const [name, value] = pair.split('=')
    return [name, value === 'true' || (value === 'false' ? false : Number(value))]
  }),
)
const MODES: Record<string, Pick<BuildContextOptions, 'followUpdates'>> = {
  default: {},
  off: { followUpdates: false },
  on: { followUpdates: true },
}
const budgets = args.budgets.split(',').map(Number)
const modes = args.modes.split(',')
const set: UpdateSet = JSON.parse(await readFile(new URL(`./${args.set}`, import.meta.url), 'utf8'))

/** The conversation as messages: each session's planted turns spread among `filler` exchanges, a week apart. */
function messagesOf(conversation: SetConversation, fillerPerSession: number): MessageInput[] {
  const random = seededRandom(conversation.id.length * 7919 + conversation.id.charCodeAt(1))
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]
  const messages: MessageInput[] = []
  let clock = Date.UTC(2025, 0, 6)
  const say = (role: string, content: string) => {
    messages.push({ id: `${conversation.id}-${messages.length}`, role, content, timestamp: clock })
    clock += 90_000
  }
  conversation.sessions.forEach((planted, s) => {
    clock = Date.UTC(2025, 0, 6) + s * 7 * 86_400_000
    const every = Math.max(1, Math.floor(fillerPerSession / (planted.length + 1)))
    let next = 0
    for (let f = 0; f < fillerPerSession; f++) {
      if (f % every === every - 1 && next < planted.length) {
        const [role, text] = planted[next++]
        say(role, text)
        // A planted user turn gets an acknowledgement unless the set itself goes on with the user (a confirmation).
        if (role === 'user' && planted[next]?.[0] !== 'user' && planted[next - 2]?.[0] !== 'assistant')
          say('assistant', pick(set.acknowledgements))
        if (role === 'assistant') {
          const [confirmRole, confirm] = planted[next++]
          say(confirmRole, confirm)
          say('assistant', pick(set.acknowledgements))
        }
      }
      const [question, answer] = pick(set.filler)
      say('user', question)
      say('assistant', answer)
    }
    while (next < planted.length) say(...planted[next++])
  })
  return messages.map((message) => ({ ...message, conversationId: conversation.id }))
}

const mentions = (text: string, value: string) =>
  new RegExp(`\\b${value.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')}\\b`, 'i').test(text)

interface Tally {
  n: number
  latest: number
  staleUnmarked: number
  resolved: number
  falseMark: number
  controls: number
  controlFalseMark: number
  controlLatest: number
}
const tallies = new Map<string, Tally>()
const tallyOf = (key: string) => {
  let t = tallies.get(key)
  if (t === undefined)
    tallies.set(
      key,
      (t = {
        n: 0,
        latest: 0,
        staleUnmarked: 0,
        resolved: 0,
        falseMark: 0,
        controls: 0,
        controlFalseMark: 0,
        controlLatest: 0,
      }),
    )
  return t
}

/** A marked line is a revised one when it names an earlier value of a changed fact and not that fact's latest. */
function marksNeverRevised(ctx: Context, facts: SetConversation['facts']): string[] {
  return ctx.items
    .filter((item) => item.supersededBy !== undefined)
    .filter(
      (item) =>
        !facts.some(
          ({ values }) =>
            values.length > 1 &&
            values.slice(0, -1).some((v) => mentions(item.text, v)) &&
            !mentions(item.text, values.at(-1)!),
        ),
    )
    .map((item) => {
      const newer = ctx.items.filter((other) => other.messageId === item.supersededBy).map((other) => other.text)
      return `${item.text} → ${newer.join(' ')}`
    })
}

for (const conversation of set.conversations) {
  const memory = await createMemory({
    name: `update-set-${conversation.id}`,
    embeddingCacheDir: DEFAULT_EMBEDDING_CACHE_DIR,
    tuning,
  })
  try {
    await memory.add(messagesOf(conversation, Number(args.filler)))
    await memory.indexed()
    for (const { question, values } of conversation.facts) {
      const latestValue = values.at(-1)!
      const staleValues = values.slice(0, -1)
      for (const mode of modes)
        for (const budget of budgets) {
          const ctx = await memory.buildContext(question, { conversationId: conversation.id, budget, ...MODES[mode] })
          const t = tallyOf(`${conversation.split} | ${mode} @${budget}`)
          const latest = ctx.items.some((item) => mentions(item.text, latestValue))
          const falseMarks = marksNeverRevised(ctx, conversation.facts)
          if (staleValues.length === 0) {
            t.controls++
            if (latest) t.controlLatest++
            if (falseMarks.length > 0) t.controlFalseMark++
          } else {
            const stale = ctx.items.filter(
              (item) => staleValues.some((v) => mentions(item.text, v)) && !mentions(item.text, latestValue),
            )
            const unmarked = stale.some((item) => item.supersededBy === undefined)
            t.n++
            if (latest) t.latest++
            if (unmarked) t.staleUnmarked++
            if (latest && !unmarked) t.resolved++
            if (falseMarks.length > 0) t.falseMark++
            if (args.examples && unmarked && mode !== 'off')
              console.log(`unmarked ${mode}@${budget} ${question}: ${stale.map((item) => item.text).join(' | ')}`)
          }
          if (args.examples && falseMarks.length > 0 && mode !== 'off')
            console.log(`false mark ${mode}@${budget} ${question}: ${falseMarks.join(' | ')}`)
        }
    }
  } finally {
    await memory.close()
  }
}

const pct = (x: number, n: number) => (n === 0 ? '—' : `${((100 * x) / n).toFixed(1)}%`)
console.log(
  'half | mode @budget | latest in context | stale unmarked | latest, stale marked or out | false marks (changed) | controls: value in context | false marks (controls)',
)
for (const [key, t] of [...tallies].sort(([a], [b]) => a.localeCompare(b)))
  console.log(
    `${key} | ${pct(t.latest, t.n)} | ${pct(t.staleUnmarked, t.n)} | ${pct(t.resolved, t.n)} | ${pct(t.falseMark, t.n)} | ${pct(t.controlLatest, t.controls)} | ${pct(t.controlFalseMark, t.controls)}`,
  )
