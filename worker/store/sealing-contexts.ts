import type {
  SealedLexicalSnapshot,
  SealedMessageRecord,
  SealedSummaryRecord,
  SealedVectorBlock,
} from './stored-records'

/**
 * The additional data each sealed record is sealed under (`RecordCipher`): its place in the database and, from schema
 * 6 on, every field it keeps in clear, so that a record moved, or one whose clear `seq`, `conversationId`, `timestamp`,
 * sid range, model or format was edited, no longer opens (and is skipped and reported like any damaged record) instead
 * of escaping a `forget` by conversation or date, or crossing two messages' vectors.
 */
export interface SealingContexts {
  message(clear: Omit<SealedMessageRecord, 'sealed'>): string
  block(clear: Omit<SealedVectorBlock, 'sealed'>): string
  residuals(blockId: number): string
  lexical(clear: Omit<SealedLexicalSnapshot, 'sealed' | 'key'>): string
  coarseLists: string
  /** The pinned ids' row (no clear field besides its key); no schema-5 memory has one. */
  pins: string
  /** A summary row, bound to its clear fields: one whose coverage was edited to escape a forget no longer opens. */
  summary(clear: Omit<SealedSummaryRecord, 'sealed'>): string
}

/** Schema 6: each context names the record and lists its clear fields, in a fixed order (JSON keeps numbers exact). */
export const boundContexts: SealingContexts = {
  message: ({ id, seq, conversationId, timestamp, firstSid, sentences }) =>
    `message:${JSON.stringify([id, seq, conversationId, timestamp, firstSid, sentences])}`,
  block: ({ blockId, format, model, dim, firstSid, lastSid }) =>
    `block:${JSON.stringify([blockId, format ?? null, model, dim, firstSid, lastSid])}`,
  residuals: (blockId) => `residuals:${blockId}`,
  lexical: ({ format, nextSid }) => `lexical:${JSON.stringify([format, nextSid])}`,
  coarseLists: 'coarse-lists',
  pins: 'pins',
  summary: ({ key, conversationId, through, throughTimestamp, throughSeq, setAt }) =>
    `summary:${JSON.stringify([key, conversationId, through, throughTimestamp, throughSeq, setAt])}`,
}

/** Schema 5: the record's place only. Read once, when open re-seals a schema-5 memory under `boundContexts`. */
export const schema5Contexts: SealingContexts = {
  message: ({ id }) => `message:${id}`,
  block: ({ blockId }) => `block:${blockId}`,
  residuals: (blockId) => `residuals:${blockId}`,
  lexical: () => 'lexical',
  coarseLists: 'coarse-lists',
  pins: 'pins',
  // No schema-5 memory has a summary row: summaries came after schema 6.
  summary: boundContexts.summary,
}
