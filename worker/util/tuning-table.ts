/**
 * What values a tuned constant may take: a `switch` turns a mechanism on or off; a `count` is a whole number ≥ 0; a
 * `share` lies in [0, 1]; an `amount` is a number ≥ 0, a `positive` one above 0; a `weight` is any finite number.
 */
export type TuningRange = 'switch' | 'count' | 'share' | 'amount' | 'positive' | 'weight'

/**
 * One constant of a tuning table: its default value and the values it may take instead. `fixed`: read where a memory's
 * `tuning` does not reach (when a sentence is indexed, when an index is built, or below the stages it is passed to),
 * so it is listed with its stage's constants and changed only in its table; the `tuning` option refuses it.
 */
export type TuningEntry = (
  | { value: boolean; range: 'switch' }
  | { value: number; range: Exclude<TuningRange, 'switch'> }
) & { fixed?: true }

/** A stage's tuning table: its constants by name, each documented where it is listed. */
export type TuningTable = Readonly<Record<string, TuningEntry>>

/** The values of a tuning table, by name: what a stage reads. */
export type TuningValues<T extends TuningTable> = {
  readonly [K in keyof T]: T[K]['range'] extends 'switch' ? boolean : number
}

/** A table's default values. */
export function tuningValues<T extends TuningTable>(table: T): TuningValues<T> {
  return Object.fromEntries(Object.entries(table).map(([name, entry]) => [name, entry.value])) as TuningValues<T>
}

/** Why `value` is not one `range` allows, or undefined when it is. */
export function outOfRange(range: TuningRange, value: unknown): string | undefined {
  if (range === 'switch') return typeof value === 'boolean' ? undefined : 'true or false'
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'a finite number'
  if (range === 'count' && !(Number.isInteger(value) && value >= 0)) return 'a whole number ≥ 0'
  if (range === 'share' && !(value >= 0 && value <= 1)) return 'a number from 0 to 1'
  if (range === 'amount' && !(value >= 0)) return 'a number ≥ 0'
  if (range === 'positive' && !(value > 0)) return 'a number above 0'
  return undefined
}
