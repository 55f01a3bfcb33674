import fc from 'fast-check'

export const DAY = 86_400_000
export const START = Date.UTC(2024, 0, 1)

/**
 * A generated chat turn: a role, up to three of `sentences` (or none), and one of five days, so that ties in
 * timestamp are common. Its timestamp is `START + day × DAY`.
 */
export function generatedTurn(sentences: readonly string[]) {
  return fc.record({
    role: fc.constantFrom('user', 'assistant'),
    content: fc.array(fc.constantFrom(...sentences), { maxLength: 3 }).map((s) => s.join(' ')),
    day: fc.integer({ min: 0, max: 4 }),
  })
}
