import type { Embedder } from '../embed/embedder'
import type { LexicalIndex } from '../index/lexical/lexical-index'
import type { SentenceCatalog } from '../index/sentence-catalog'
import { sentencesOf } from '../store/message-record'
import { messageSids } from '../store/record-check'
import type { ForgetResult } from '../store/store'
import type { BackgroundIndexing } from './background-indexing'

/** What follows a forget: the in-memory indexes, the background work's vectors and saved copies, the embedding cache. */
export interface ForgetFollowers {
  catalog: SentenceCatalog
  lexical: LexicalIndex
  background: BackgroundIndexing
  embedder: Embedder
}

/**
 * After the store removed messages or sentences (inside the write queue): every index lets go of them, and so does
 * the embedding cache. A message that lost some sentences is indexed again as it is now: the lexical index's turn
 * document holds the whole message's words, so it is rebuilt from the sentences left, which keep their sids.
 *
 * `removed.redacted` is where a sentence-level forget says "these messages changed": whatever else is derived from a
 * message's text (a summary covering it) must follow here.
 */
export async function followForget(removed: ForgetResult, followers: ForgetFollowers): Promise<void> {
  const { catalog, lexical, background, embedder } = followers
  const texts = removed.sids.map((sid) => catalog.get(sid)?.text).filter((text) => text !== undefined)
  const redactedSids = removed.redacted.flatMap(messageSids)
  catalog.remove(removed.messageIds)
  catalog.replace(removed.redacted)
  lexical.remove([...removed.sids, ...redactedSids])
  lexical.add(removed.redacted.flatMap(sentencesOf))
  background.forgotten(removed)
  // A cached vector is keyed by a hash of its text: left there, it would confirm a guessed text.
  await embedder.forgetCached(texts, 'document')
}
