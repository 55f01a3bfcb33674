import type { FloatVectorBlock, VectorBlock, VectorResiduals } from './vector-block'

const isPositiveInteger = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0

/** Whether `sids` are increasing positive integers in a Float64Array, as every block stores them. */
function isSidArray(sids: unknown): sids is Float64Array {
  if (!(sids instanceof Float64Array) || sids.length === 0) return false
  for (let i = 0; i < sids.length; i++)
    if (!isPositiveInteger(sids[i]) || (i > 0 && sids[i] <= sids[i - 1])) return false
  return true
}

/**
 * Whether a decoded codes record is a block whose parts fit together: sids increasing, `firstSid`/`lastSid` their
 * ends, and one row of `dim` codes (or float32 values, in a block written before int8) and one scale per sid. A torn
 * write or a damaged disk leaves a record that fails this, and the vector index would read past its arrays.
 */
export function isVectorBlock(value: unknown): value is VectorBlock | FloatVectorBlock {
  if (typeof value !== 'object' || value === null) return false
  const { blockId, model, dim, firstSid, lastSid, sids } = value as Record<string, unknown>
  if (!isPositiveInteger(blockId) || typeof model !== 'string' || !isPositiveInteger(dim) || !isSidArray(sids))
    return false
  if (firstSid !== sids[0] || lastSid !== sids[sids.length - 1]) return false
  const rows = sids.length
  if ('vectors' in value) {
    const { vectors } = value as { vectors: unknown }
    return vectors instanceof Float32Array && vectors.length === rows * dim
  }
  const { codes, scales } = value as Record<string, unknown>
  return (
    codes instanceof Int8Array &&
    codes.length === rows * dim &&
    scales instanceof Float32Array &&
    scales.length === rows
  )
}

/** Whether a decoded residual record fits together: one row of residuals and one scale per sid. */
export function isVectorResiduals(value: unknown): value is VectorResiduals {
  if (typeof value !== 'object' || value === null) return false
  const { blockId, sids, residuals, residualScales } = value as Record<string, unknown>
  if (!isPositiveInteger(blockId) || !isSidArray(sids)) return false
  return (
    residuals instanceof Int8Array &&
    residuals.length % sids.length === 0 &&
    residualScales instanceof Float32Array &&
    residualScales.length === sids.length
  )
}
