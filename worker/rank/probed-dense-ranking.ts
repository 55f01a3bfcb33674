import type { DenseRanking } from './dense-ranking'
import type { RankedList } from './ranked-list'
import type { ProbedScores } from '../index/vector/vector-index'
import type { ScoredSid } from '../index/scored-sid'

/**
 * A dense ranking that starts from a probe of the coarse lists (`VectorIndex.probe`) and only scans every row if the
 * caller reads past the probe's rows: it then continues with the exact ranking (`exact()`, built on first need),
 * leaving out the sentences already given. The packer usually stops well inside the probe's few hundred rows.
 */
export class ProbedDenseRanking implements RankedList {
  private readonly given = new Map<number, number>()
  private exactRanking: DenseRanking | undefined
  /** Entries after the probe's, from the exact ranking: its positions not given by the probe. */
  private readonly rest: number[] = []
  private exactCursor = 0

  constructor(
    private readonly probed: ProbedScores,
    private readonly exact: () => DenseRanking,
  ) {
    for (let i = 0; i < probed.count; i++) this.given.set(probed.sids[i], probed.score[i])
  }

  at(position: number): ScoredSid | undefined {
    const { probed } = this
    if (position < probed.count) return { sid: probed.sids[position], score: probed.score[position] }
    const ranking = (this.exactRanking ??= this.exact())
    const wanted = position - probed.count
    while (this.rest.length <= wanted) {
      const at = ranking.positionAt(this.exactCursor++)
      if (at < 0) return undefined
      if (!this.given.has(ranking.scores.sids[at])) this.rest.push(at)
    }
    const at = this.rest[wanted]
    return { sid: ranking.scores.sids[at], score: ranking.scores.score[at] }
  }

  scoreOf(sid: number): number | undefined {
    return this.given.get(sid) ?? (this.exactRanking ??= this.exact()).scoreOf(sid)
  }
}
