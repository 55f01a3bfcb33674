// A context's heading (`BuildContextOptions.heading`): a line the app puts before the excerpts, inside the budget.
import type { Context } from '../../src/types'
import type { ContextRequest } from '../input/context-request'
import type { ContextMoment } from './assemble-context'
import { startChars } from './context-plan'

/**
 * The context `assemble` builds, headed by `request.heading` when its text holds anything. The heading's line is
 * taken from the budget before the rest is packed: in characters, its length; in tokens, every text the packer
 * counts is counted with the line before it, since a tokenizer does not add counts up piece by piece. A context with
 * nothing in it gets no heading, so an empty history sends nothing.
 */
export function withHeading(
  request: ContextRequest,
  moment: ContextMoment,
  assemble: (request: ContextRequest, moment: ContextMoment) => Context,
): Context {
  const { heading } = request
  if (heading === undefined) return assemble(request, moment)
  const line = `${heading}\n`
  const { countTokens } = moment
  const given = request.budget
  const body =
    'tokens' in given && countTokens
      ? assemble(request, { ...moment, countTokens: (text) => countTokens(text === '' ? text : line + text) })
      : assemble({ ...request, budget: { chars: Math.max(1, startChars(given) - line.length) } }, moment)
  const budget = 'tokens' in given ? body.stats.budget + line.length : given.chars
  if (body.text === '') return { ...body, stats: { ...body.stats, budget, fill: body.stats.used / budget } }
  const used = body.stats.used + line.length
  return { ...body, text: line + body.text, stats: { ...body.stats, budget, used, fill: used / budget } }
}
