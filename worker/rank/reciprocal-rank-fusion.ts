/**
 * The `k` of reciprocal rank fusion, score(key) = Σ over lists of 1 / (k + rank): the value from Cormack et al.
 * It damps the head of each list: a small `k` lets one list's top hit dominate, a large `k` rewards keys that
 * several lists agree on.
 */
export const RRF_K = 60
