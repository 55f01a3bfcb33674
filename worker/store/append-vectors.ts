import {
  decodeWithResiduals,
  deleteBlocks,
  keptRows,
  liveSids,
  putBlockRecords,
  residualRecords,
  tailBlocks,
} from './block-records'
import type { RecordCodec } from './record-codec'
import { sameWrites } from './rewrite'
import type { SiftDatabase } from './schema'
import { readState } from './state-row'
import { appendToBlocks } from './vector-block'

/**
 * `SiftStore.appendVectors`: the state row, which of the batch's sentences are still stored, and the trailing blocks
 * (with their residuals) are read; the blocks decoded, merged with the batch's kept rows and encoded; then written with
 * the new counters, unless (`RecordCodec.rewrite`) the counters, the sentences or the trailing blocks changed.
 */
export function appendVectors(
  db: SiftDatabase,
  codec: RecordCodec,
  sids: readonly number[],
  vectors: Float32Array,
  dim: number,
  through: number,
): Promise<{ sids: number[]; vectors: Float32Array }> {
  return codec.rewrite(db, {
    what: 'store the embeddings',
    tables: [db.meta, db.messages, db.vectorBlocks, db.vectorResiduals],
    async read() {
      const [state, alive, tail] = await Promise.all([readState(db), liveSids(db, sids), tailBlocks(db)])
      return { state, alive, tail }
    },
    readMore: ({ tail }) => residualRecords(db, tail),
    async prepare({ state, alive, tail }, residuals) {
      const kept = keptRows(sids, vectors, dim, alive)
      const { put, remove, nextBlockId } = appendToBlocks(
        await decodeWithResiduals(codec, tail, residuals),
        kept.sids,
        kept.vectors,
        { model: state.model, dim, nextBlockId: state.nextBlockId },
      )
      return { kept, remove, nextBlockId, put: await Promise.all(put.map((block) => codec.encodeBlock(block))) }
    },
    unchanged: (before, now, sameWrite) =>
      now.state.nextBlockId === before.state.nextBlockId &&
      now.state.model === before.state.model &&
      now.alive.every((live, i) => live === before.alive[i]) &&
      sameWrites(sameWrite, before.tail, now.tail),
    async write({ state }, { kept, remove, nextBlockId, put }) {
      await deleteBlocks(db, remove)
      await putBlockRecords(db, put)
      await db.meta.put({ ...state, nextBlockId, embeddedThrough: Math.max(state.embeddedThrough, through) })
      return kept
    },
  })
}
