// `packBudget`'s options as an app's compiler sees them: the items it is offered first go by `offeredFirst`, and the
// former name `pinned` (which also named the app's pins, `Memory.pin`) is still accepted, deprecated.
import { describe, expectTypeOf, it } from 'vitest'
import { packBudget, type PackOptions, type PackResult, type ScoredSentence } from '../../src/index'

declare const recent: ScoredSentence[]

describe('PackOptions', () => {
  it('takes the items offered first as offeredFirst', () => {
    expectTypeOf<PackOptions['offeredFirst']>().toEqualTypeOf<readonly ScoredSentence[] | undefined>()
    expectTypeOf(packBudget([], { budget: 100, offeredFirst: recent })).toEqualTypeOf<PackResult>()
  })

  it('still takes them as pinned, its deprecated alias', () => {
    expectTypeOf<PackOptions['pinned']>().toEqualTypeOf<readonly ScoredSentence[] | undefined>()
    expectTypeOf(packBudget([], { budget: 100, pinned: recent })).toEqualTypeOf<PackResult>()
  })
})
