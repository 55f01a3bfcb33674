/**
 * From this many rows on, the index trains coarse lists (`VectorIndex.trainCoarseLists`) and a probe scans only the
 * lists nearest a query. Below it an exact scan is already fast, and a few thousand rows make poor clusters.
 */
export const COARSE_MIN_ROWS = 20_000
/** The lists are trained again once the rows have doubled since the last training. */
export const RETRAIN_GROWTH = 2

/**
 * Training: about `LISTS_PER_ROOT × √rows` lists, `SAMPLE_PER_LIST` sample rows per list, `TRAIN_ITERATIONS` Lloyd
 * iterations, chosen by a sweep on synthetic vectors (bench/vectors/probe-recall.ts, BENCHMARKS.md): with fewer samples and
 * iterations a probe had to scan several times more rows and still found less of the exact top-50.
 */
export const LISTS_PER_ROOT = 2
export const SAMPLE_PER_LIST = 32
export const TRAIN_ITERATIONS = 10
/** Rows filed between two yields of the training. */
export const FILE_ROWS_PER_SLICE = 256

/**
 * How many rows a probe scans is calibrated on the data when the lists are trained: `CALIBRATION_QUERIES` random rows
 * serve as queries, and the probe takes the smallest of `PROBE_SHARES` (share of all rows) whose top-`CALIBRATION_K`
 * holds `CALIBRATION_RECALL` of each one's exact top-`CALIBRATION_K` (itself excluded). That is the recall the product
 * promises, measured on rows, which are harder queries than requests; above it recall barely grows with the share,
 * so a higher target would make the chosen share swing from one training to the next. The mean is swayed by a few
 * rows in sparse neighbourhoods, hence this many queries: fewer chose different shares on the same data from run to
 * run; more cost background CPU at every training (BENCHMARKS.md, bench/vectors/probe-recall.ts). Real sentence vectors
 * cluster less than synthetic ones and need a larger share; a fixed share would be too slow for one or miss for the
 * other.
 */
export const CALIBRATION_QUERIES = 300
export const CALIBRATION_RECALL = 0.99
export const CALIBRATION_K = 50
/** The shares a probe may scan: steps of √2, so a history that just misses one share pays 1.4× its scan rather than 2×. */
export const PROBE_SHARES = Array.from({ length: 11 }, (_, k) => 2 ** (-7 + k / 2))
