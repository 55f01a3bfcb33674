import { eld } from 'eld/extrasmall'
import { LexicalIndex } from '../../worker/index/lexical/lexical-index'
import { type NgramDetector, sentenceLanguages } from '../../worker/text/language-detection'
import type { Language } from '../../worker/text/text-analysis'
import { generateHistory } from '../shared/synthetic-history'
import { syntheticSentences } from '../shared/synthetic-sentences'

/**
 * What language detection costs the lexical index's indexing (bench:perf's `--only lexical`, in Node, on the
 * synthetic history): the same sentences indexed with the shipped detector, with `eld.detect` itself (the path before
 * `ngram-detector.ts`), with every sentence in English (no detection, the analysis before languages were detected)
 * and with detection off (no language: the floor), in alternating rounds.
 */

/** `eld.detect` as the detector, its scores read only when asked for, as `detectLanguage` read them before. */
const eldDetector: NgramDetector = (text) => {
  const result = eld.detect(text)
  return {
    language: result.language,
    get scores() {
      return result.getScores()
    },
    get reliable() {
      return result.language !== '' && result.isReliable()
    },
  }
}

export const LEXICAL_PATHS: Record<string, (texts: readonly string[]) => (Language | undefined)[]> = {
  'shipped detector (ngram-detector.ts)': (texts) => sentenceLanguages(texts),
  'eld.detect (before)': (texts) => sentenceLanguages(texts, eldDetector),
  'no detection, every sentence English': (texts) => texts.map(() => 'en'),
  'detection off (floor)': (texts) => texts.map(() => undefined),
}

export interface LexicalCost {
  path: string
  /** Milliseconds to index every sentence, one per round. */
  ms: number[]
}

/** Indexes `size` synthetic sentences `rounds` times with each path of `LEXICAL_PATHS`, the paths alternating. */
export function lexicalIndexCost(size: number, rounds: number, say: (line: string) => void): LexicalCost[] {
  const sentences = syntheticSentences(generateHistory(size))
  const costs = Object.keys(LEXICAL_PATHS).map((path) => ({ path, ms: [] as number[] }))
  for (let round = 0; round < rounds; round++)
    for (const cost of costs) {
      const started = performance.now()
      new LexicalIndex(LEXICAL_PATHS[cost.path]).add(sentences)
      cost.ms.push(performance.now() - started)
      say(`lexical index, ${cost.path}, round ${round + 1}: ${cost.ms[round].toFixed(0)} ms`)
    }
  return costs
}

/** The costs as a table: each path's rounds, median, and its median over the floor's (the last path). */
export function lexicalCostTable(size: number, costs: readonly LexicalCost[]): string {
  const median = (ms: readonly number[]) => [...ms].sort((a, b) => a - b)[Math.floor(ms.length / 2)]
  const floor = median(costs[costs.length - 1].ms)
  const rows = costs.map(
    ({ path, ms }) =>
      `| ${path} | ${ms.map((m) => m.toFixed(0)).join(', ')} | ${median(ms).toFixed(0)} | ${(median(ms) / floor).toFixed(2)}× |`,
  )
  return [
    `Indexing ${size.toLocaleString('en')} sentences (LexicalIndex.add, Node, synthetic history)`,
    '| path | ms per round | median ms | / floor |',
    '|---|--:|--:|--:|',
    ...rows,
  ].join('\n')
}
