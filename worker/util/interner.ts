/**
 * Numbers for strings, in order of first sight: a typed-array column can then hold a conversation as an integer
 * instead of a string per row.
 */
export class Interner {
  private readonly numbers = new Map<string, number>()
  private readonly values: (string | undefined)[] = []

  /** The number of `value`, given the next free one on first sight. */
  intern(value: string): number {
    let number = this.numbers.get(value)
    if (number === undefined) {
      number = this.values.push(value) - 1
      this.numbers.set(value, number)
    }
    return number
  }

  /** The number of `value`, or undefined when it was never interned (or forgotten since). */
  numberOf(value: string): number | undefined {
    return this.numbers.get(value)
  }

  /** The value interned as `number`; undefined when none was, or it was forgotten. */
  valueOf(number: number): string | undefined {
    return this.values[number]
  }

  /**
   * Lets go of the value of `number` (a forgotten conversation's id must not stay in memory). The number is not
   * given out again, so columns still holding it never come to mean another value; the value interned anew gets a
   * new number.
   */
  forget(number: number): void {
    const value = this.values[number]
    if (value === undefined) return
    this.numbers.delete(value)
    this.values[number] = undefined
  }
}
