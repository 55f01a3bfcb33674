import type { DenseRanking } from './dense-ranking'
import type { RankedList, RankedSid } from './ranked-list'
import { RANK_TUNING } from './rank-tuning'

interface FusedEntry extends RankedSid {
  bestRank: number
  firstSeen: number
}

/**
 * What a lexical hit's reciprocal rank is multiplied by (0–1), given its sid and its dense rank (1-based; undefined
 * when it has no vector): `lexicalShare` in `hybrid`. The dense rank always counts in full.
 */
export type LexicalWeight = (sid: number, denseRank: number | undefined) => number

/**
 * Exactly a weighted `fuseRanks([full dense ranking, lexical hits])` — score = `denseWeight` × 1 / (k + dense rank) +
 * weight × 1 / (k + lexical rank), `k` being `rrfK`; with `absentRankMin` (`lexicalListEnd` in the ranking's tuning),
 * weight × (1 / (k + lexical rank) − 1 / (k + the absent rank)), the absent rank being the list's length + 1 or
 * `absentRankMin`, whichever is larger, so that a hit counts for how far it stands above a sentence no word matches —
 * produced lazily: only the lexical hits need their dense rank (counted in one pass, `DenseRanking.ranksOf`); every
 * other sentence's fused score is `denseWeight` / (k + its dense rank), which falls with the rank (at `denseWeight` 0
 * they all tie after every lexical hit, in dense order), so the fused list is a merge of the dense order (lexical hits
 * skipped) with the lexical hits sorted by fused score. Ties break as in `fuseRanks`: best rank in either list, then
 * first appearance (the dense list is read first, so a sentence with a vector first appears at its dense rank). Each
 * entry carries its rank in each list.
 */
export class FusedRanking implements RankedList {
  private readonly lexicalEntries: FusedEntry[]
  private readonly lexicalAt = new Map<number, FusedEntry>()
  /** Dense positions of the lexical hits, skipped in the dense stream. */
  private readonly lexicalPositions = new Set<number>()
  private readonly merged: FusedEntry[] = []
  private nextLexical = 0
  private nextDense = 0
  private readonly denseRankCache = new Map<number, number>()

  constructor(
    private readonly dense: DenseRanking | undefined,
    lexical: readonly { sid: number }[],
    weightOf: LexicalWeight = () => 1,
    private readonly rrfK = RANK_TUNING.rrfK,
    private readonly denseWeight = 1,
    absentRankMin?: number,
  ) {
    const hits: { sid: number; rank: number; position: number }[] = []
    const inList = new Set<number>()
    lexical.forEach(({ sid }, i) => {
      if (inList.has(sid)) return
      inList.add(sid)
      hits.push({ sid, rank: i + 1, position: dense ? dense.scores.positionOf(sid) : -1 })
    })
    const denseRanks = dense
      ? dense.ranksOf(hits.filter((h) => h.position >= 0).map((h) => h.position))
      : new Map<number, number>()
    let lexicalOnly = 0
    const count = dense?.length ?? 0
    const floor = absentRankMin === undefined ? 0 : 1 / (this.rrfK + Math.max(hits.length + 1, absentRankMin))
    this.lexicalEntries = hits.map(({ sid, rank, position }) => {
      if (position < 0) {
        const score = weightOf(sid, undefined) * (1 / (this.rrfK + rank) - floor)
        return { sid, score, ranks: { lexical: rank }, bestRank: rank, firstSeen: count + lexicalOnly++ }
      }
      this.lexicalPositions.add(position)
      const denseRank = denseRanks.get(position)! + 1
      const score = denseWeight / (this.rrfK + denseRank) + weightOf(sid, denseRank) * (1 / (this.rrfK + rank) - floor)
      return {
        sid,
        score,
        ranks: { lexical: rank, dense: denseRank },
        bestRank: Math.min(denseRank, rank),
        firstSeen: denseRank - 1,
      }
    })
    this.lexicalEntries.sort(compareFused)
    for (const entry of this.lexicalEntries) this.lexicalAt.set(entry.sid, entry)
  }

  at(position: number): RankedSid | undefined {
    while (this.merged.length <= position) {
      const entry = this.mergeNext()
      if (!entry) return undefined
      this.merged.push(entry)
    }
    return this.merged[position]
  }

  scoreOf(sid: number): number | undefined {
    const lexical = this.lexicalAt.get(sid)
    if (lexical) return lexical.score
    const position = this.dense ? this.dense.scores.positionOf(sid) : -1
    if (position < 0 || !this.dense) return undefined
    let rank = this.denseRankCache.get(position)
    if (rank === undefined) this.denseRankCache.set(position, (rank = this.dense.ranksOf([position]).get(position)!))
    return this.denseWeight / (this.rrfK + rank + 1)
  }

  private mergeNext(): FusedEntry | undefined {
    const dense = this.denseHead()
    const lexical = this.lexicalEntries[this.nextLexical]
    if (dense && (!lexical || compareFused(dense, lexical) < 0)) {
      this.nextDense++
      return dense
    }
    if (lexical) this.nextLexical++
    return lexical
  }

  /** The next dense-only entry, skipping lexical hits (they carry their fused score in the lexical stream). */
  private denseHead(): FusedEntry | undefined {
    const { dense } = this
    if (!dense) return undefined
    for (;;) {
      const position = dense.positionAt(this.nextDense)
      if (position < 0) return undefined
      if (!this.lexicalPositions.has(position)) {
        const rank = this.nextDense + 1
        return {
          sid: dense.scores.sids[position],
          score: this.denseWeight / (this.rrfK + rank),
          ranks: { dense: rank },
          bestRank: rank,
          firstSeen: rank - 1,
        }
      }
      this.nextDense++
    }
  }
}

function compareFused(a: FusedEntry, b: FusedEntry): number {
  return b.score - a.score || a.bestRank - b.bestRank || a.firstSeen - b.firstSeen
}
