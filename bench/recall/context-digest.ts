import { createHash, type Hash } from 'node:crypto'
import type { Context } from '../../src/types'

/**
 * SHA-256 digests of the contexts a run builds (`bench:recall --digest`): each context's text and items, never its
 * stats (they hold timings), fed in the order built, which the run keeps stable (conversations, questions, strategies
 * and budgets in their given order). Two runs printing the same digests built byte-identical contexts; a refactor
 * that must not change behaviour is checked this way.
 */
export class ContextDigest {
  private readonly all = createHash('sha256')
  private readonly byKey = new Map<string, Hash>()
  private count = 0

  /** Adds one context, under `key` (e.g. `hybrid @ 2000`) as well as to the overall digest. */
  add(key: string, question: string, context: Pick<Context, 'text' | 'items'>): void {
    let hash = this.byKey.get(key)
    if (!hash) this.byKey.set(key, (hash = createHash('sha256')))
    // Length-prefixed, so no two sequences of contexts feed the same bytes.
    const record = JSON.stringify([key, question, context.text, context.items])
    for (const target of [this.all, hash]) target.update(`${record.length}:${record}`)
    this.count++
  }

  /** One line per key, then the overall digest and how many contexts it covers. */
  render(): string {
    const lines = [...this.byKey].map(([key, hash]) => `digest ${key}: ${hash.copy().digest('hex')}`)
    lines.push(`digest all (${this.count} contexts): ${this.all.copy().digest('hex')}`)
    return `${lines.join('\n')}\n`
  }
}
