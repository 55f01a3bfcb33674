import { generateHistory, generateQueries } from './synthetic-history'
import { SyntheticVectors } from './synthetic-vectors'

/** The synthetic history's sentence vectors as one corpus, with `queryCount` query vectors about its first 1,000 sentences' topics. */
export function syntheticCorpus(
  size: number,
  queryCount: number,
): { corpus: Float32Array; rows: number; dim: number; queries: Float32Array[] } {
  const generator = new SyntheticVectors()
  const history = generateHistory(size)
  const { dim } = generator
  const corpus = new Float32Array(history.sentences.length * dim)
  history.sentences.forEach((s) =>
    generator.sentence(s.index, s.topic, s.subtopic, corpus.subarray(s.index * dim, (s.index + 1) * dim)),
  )
  const queries = generateQueries(queryCount, history, 1000).map((q) => generator.query(q.index, q.topic, q.subtopic))
  return { corpus, rows: history.sentences.length, dim, queries }
}
