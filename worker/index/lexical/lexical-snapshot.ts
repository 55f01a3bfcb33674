import { copyIsStale } from '../../util/stale-copy'
import { LexicalIndex, type SerializedLexicalIndex } from './lexical-index'
import { countAbove, type SentenceCatalog } from '../sentence-catalog'

/**
 * Layout of a stored snapshot. Bump it whenever `LexicalIndex` changes what it indexes or what `serialize` holds: older
 * snapshots are then rebuilt. 4: only conversations that still have a sentence (a format-3 snapshot may name
 * forgotten ones). 5: terms in every script and language (words from `word-segmentation.ts`, each sentence's
 * language's stemmer and stop words, CJK character pairs, compounding languages' character 4-grams), and each
 * sentence's language.
 */
export const LEXICAL_SNAPSHOT_FORMAT = 5

/** The lexical index as saved: its serialised form, the format it was written in, and the sids it covers (`< nextSid`). */
export interface LexicalSnapshot {
  format: number
  nextSid: number
  index: SerializedLexicalIndex
}

/** The lexical index at open: the saved snapshot plus the sentences stored since, or every sentence re-indexed without one. */
export function restoreLexicalIndex(
  snapshot: LexicalSnapshot | undefined,
  catalog: SentenceCatalog,
): { index: LexicalIndex; coveredBelow: number } {
  let index: LexicalIndex | undefined
  let coveredBelow = 0
  if (snapshot?.format === LEXICAL_SNAPSHOT_FORMAT) {
    try {
      index = LexicalIndex.deserialize(snapshot.index)
      coveredBelow = snapshot.nextSid
    } catch {
      // A snapshot that does not load is only a cache: index from the catalog instead.
    }
  }
  index ??= new LexicalIndex()
  const missing = catalog.sidsAbove(coveredBelow - 1).map((sid) => catalog.get(sid)!)
  if (missing.length > 0) index.add(missing)
  return { index, coveredBelow }
}

/** Whether enough sentences are missing from the stored snapshot to write a fresh one. */
export function snapshotIsStale(catalog: SentenceCatalog, coveredBelow: number): boolean {
  const { sids } = catalog.scope()
  const missing = countAbove(sids, coveredBelow - 1)
  return copyIsStale(missing, catalog.sentenceCount)
}
