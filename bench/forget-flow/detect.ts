import { readFile } from 'node:fs/promises'
import { UsageError } from '../../tools/context-cli/context-args'
import { readForgetRequest } from '../../worker/input/forget-request-topic'
import type { SetConversation, Split } from './forget-set-format'

/**
 * Whether a message asks to forget at all (`findForgettable`'s `request`), without a memory or a model: the reading
 * of each request message and control of a forget set (`readForgetRequest`, what the engine does first), and of each
 * stored user message, which states things and asks nothing to be forgotten. Prints, per language and in all, the
 * share of requests read as one, of controls read as one, and of stored user messages read as one; with `--show`,
 * on stderr, every request missed and every control or stored message taken for a request, and each request's topic.
 *
 * npx tsx bench/forget-flow/detect.ts [--set FILE]… [--split tune|held-out] [--show misses|all]
 */

interface Args {
  sets: string[]
  split: Split | undefined
  show: 'none' | 'misses' | 'all'
}

interface Tally {
  requests: number
  requestsRead: number
  controls: number
  controlsRead: number
  stored: number
  storedRead: number
}

const emptyTally = (): Tally => ({
  requests: 0,
  requestsRead: 0,
  controls: 0,
  controlsRead: 0,
  stored: 0,
  storedRead: 0,
})

function parseArgs(argv: string[]): Args {
  const args: Args = { sets: [], split: undefined, show: 'none' }
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]]
    if (flag === '--set') args.sets.push(value)
    else if (flag === '--split' && (value === 'tune' || value === 'held-out')) args.split = value
    else if (flag === '--show' && (value === 'misses' || value === 'all')) args.show = value
    else
      throw new UsageError(
        'usage: npx tsx bench/forget-flow/detect.ts [--set FILE]… [--split tune|held-out] [--show misses|all]',
      )
  }
  if (args.sets.length === 0) args.sets.push('bench/forget-flow/forget-set.json')
  return args
}

const log = (line: string): void => void process.stderr.write(`${line}\n`)
const percent = (part: number, whole: number): string =>
  whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)}% (${part}/${whole})`

function readConversation(conversation: SetConversation, args: Args, tally: Tally): void {
  const inSplit = (item: { split?: Split }) => !args.split || item.split === args.split
  for (const request of conversation.requests.filter(inSplit)) {
    const reading = readForgetRequest(request.message)
    tally.requests++
    if (reading.sentences.length > 0) tally.requestsRead++
    if (args.show === 'all' || (args.show === 'misses' && reading.sentences.length === 0))
      log(
        `${request.id}: ${reading.sentences.length === 0 ? 'NOT READ' : reading.sentences.map((s) => `[${s.text}]`).join(' ')} → topic: ${reading.topic}`,
      )
  }
  for (const control of (conversation.controls ?? []).filter(inSplit)) {
    const reading = readForgetRequest(control.message)
    tally.controls++
    if (reading.sentences.length > 0) {
      tally.controlsRead++
      if (args.show !== 'none') log(`${control.id}: control read as ${reading.sentences.map((s) => `[${s.text}]`)}`)
    }
  }
  for (const message of conversation.messages.filter((m) => m.role === 'user')) {
    const reading = readForgetRequest(message.content)
    tally.stored++
    if (reading.sentences.length > 0) {
      tally.storedRead++
      if (args.show !== 'none') log(`${message.id}: stored read as ${reading.sentences.map((s) => `[${s.text}]`)}`)
    }
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2))
  const languages = new Map<string, Tally>()
  const total = emptyTally()
  for (const set of args.sets) {
    const data = JSON.parse(await readFile(set, 'utf8')) as { format: string; conversations: SetConversation[] }
    if (data.format !== 'sift-forget-set') throw new UsageError(`${set} is not a sift-forget-set file`)
    for (const conversation of data.conversations) {
      const tally = emptyTally()
      readConversation(conversation, args, tally)
      const language = conversation.language ?? 'en'
      if (!languages.has(language)) languages.set(language, emptyTally())
      for (const sum of [total, languages.get(language)!])
        for (const key of Object.keys(sum) as (keyof Tally)[]) sum[key] += tally[key]
    }
  }
  const line = (name: string, t: Tally) =>
    `${name}: requests read as one ${percent(t.requestsRead, t.requests)}; controls read as one ${percent(t.controlsRead, t.controls)}; stored user messages read as one ${percent(t.storedRead, t.stored)}`
  const lines = [...languages].map(([language, tally]) => line(language, tally))
  lines.push(line('all', total))
  process.stdout.write(`${lines.join('\n')}\n`)
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof UsageError ? error.message : error instanceof Error ? error.stack : error}\n`,
  )
  process.exit(1)
})
