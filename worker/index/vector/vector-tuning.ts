import { tuningValues, type TuningTable, type TuningValues } from '../../util/tuning-table'

/**
 * How the vector index ranks a query's rows (`vector-scoring.ts`): part of the ranking's tuning
 * (`worker/rank/rank-tuning.ts` holds this table with its own), kept beside the index that reads it. Each entry says
 * what it means, its unit, the values tried and where their figures are. How coarse lists are trained and a probe's
 * share calibrated is the index's upkeep, not the ranking's: `coarse-list-tuning.ts`.
 *
 * Every entry is `fixed`: the index sizes its rows' re-scoring room by them when it is built, and the background
 * calibration of the probe share runs probes with them, so a memory's `tuning` cannot change them; they change here.
 */
export const VECTOR_TUNING_TABLE = {
  /**
   * Rows re-scored exactly (codes + residuals) after the int8 scan of every row, best int8 scores first. The int8
   * score is off by about 10⁻³, so the exact top-50 lies far inside the int8 top-512; ranks below stay
   * int8-approximate. Rows. Tried: 512 only (commit `9e7e709`, the recall of the exact top-50 by `bench/vectors/int8-recall.ts`;
   * BENCHMARKS.md, "Figures behind constants in the code", residuals).
   */
  rescoredRows: { value: 512, range: 'count', fixed: true },
  /**
   * A probe of the coarse lists keeps its best this many rows by int8 similarity: its ranking, which the exact ranking
   * of the other rows follows only if the packer reads past it. Rows. Tried: 256 only (commit `186d9e0`, probe recall
   * by `bench/vectors/probe-recall.ts`; BENCHMARKS.md, "Figures behind constants in the code", probe calibration).
   */
  probedKept: { value: 256, range: 'count', fixed: true },
  /**
   * Of a probe's kept rows, the best this many by int8 similarity are re-scored exactly (codes + residuals). Rows.
   * Tried: 96 only (same commit and rows as `probedKept`).
   */
  probedRescored: { value: 96, range: 'count', fixed: true },
} satisfies TuningTable

/** How the vector index ranks a query's rows. */
export type VectorTuning = TuningValues<typeof VECTOR_TUNING_TABLE>

/** How the vector index ranks a query's rows, as shipped. */
export const VECTOR_TUNING: VectorTuning = tuningValues(VECTOR_TUNING_TABLE)
