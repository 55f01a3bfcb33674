/**
 * Numbers for strings, in order of first sight: a typed-array column can then hold a conversation as an integer
 * instead of a string per row.
 */
export class Interner {
  private readonly numbers = new Map<string, number>()
  private readonly values: string[] = []

  /** The number of `value`, given the next free one on first sight. */
  intern(value: string): number {
    let number = this.numbers.get(value)
    if (number === undefined) {
      number = this.values.push(value) - 1
      this.numbers.set(value, number)
    }
    return number
  }

  /** The number of `value`, or undefined when it was never interned. */
  numberOf(value: string): number | undefined {
    return this.numbers.get(value)
  }

  /** Every interned value, indexed by its number. */
  get all(): readonly string[] {
    return this.values
  }
}
