import { SiftError } from '../../src/errors'
import { CONTEXT_TUNING_TABLE } from '../context/context-tuning'
import { RANK_TUNING_TABLE } from '../rank/rank-tuning'
import { outOfRange, tuningValues, type TuningEntry, type TuningTable, type TuningValues } from '../util/tuning-table'
import { describe } from './message-input'

/** Every retrieval constant by name: the ranking's table (the lexical index's with it) and the selection stages'. */
const TUNING_TABLE = { ...RANK_TUNING_TABLE, ...CONTEXT_TUNING_TABLE } satisfies TuningTable

type SharedName = keyof typeof RANK_TUNING_TABLE & keyof typeof CONTEXT_TUNING_TABLE
// Fails to compile while a name is in both tables: one would hide the other.
const everyNameOnce: SharedName extends never ? true : SharedName = true
void everyNameOnce

/** What a request is ranked and its context selected with: `RankTuning` and `ContextTuning` together. */
export type Tuning = TuningValues<typeof TUNING_TABLE>

/** The tuning as shipped. */
export const DEFAULT_TUNING: Tuning = tuningValues(TUNING_TABLE)

/**
 * The tuning a memory ranks and selects with: the shipped values, with those `overrides` names replaced. An internal
 * option of the Node entry (`NodeMemoryOptions.tuning`, for benchmarks and ablations), so a name or value the tables
 * do not allow, or a `fixed` constant, is an `INVALID_INPUT` naming it.
 */
export function toTuning(overrides: unknown): Tuning {
  if (overrides === undefined) return DEFAULT_TUNING
  if (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides))
    invalid(`tuning must be an object of tuning names and values, got ${describe(overrides)}`)
  const tuning: Record<string, unknown> = { ...DEFAULT_TUNING }
  for (const [name, value] of Object.entries(overrides)) {
    if (!Object.hasOwn(TUNING_TABLE, name))
      invalid(`tuning has no constant named ${JSON.stringify(name)}; known: ${Object.keys(TUNING_TABLE).join(', ')}`)
    const entry: TuningEntry = TUNING_TABLE[name as keyof Tuning]
    if (entry.fixed)
      invalid(
        `tuning.${name} is fixed: the engine reads it where a memory's tuning does not reach (its table says where); change it in its table`,
      )
    const wanted = outOfRange(entry.range, value)
    if (wanted !== undefined) invalid(`tuning.${name} must be ${wanted}, got ${describe(value)}`)
    tuning[name] = value
  }
  return tuning as Tuning
}

function invalid(message: string): never {
  throw new SiftError('INVALID_INPUT', `${message}.`)
}
