// Builds the Hugging Face `tokenizer.json` (and its companion config) that reproduces the reference
// SentencePiece tokenizer of @tensorflow-models/universal-sentence-encoder on the USE-Lite vocabulary.
//
// Matching the reference, not the usual HF SentencePiece conversion:
// - The reference prepends `▁` to every non-empty NFKC text, even one that already starts with a space,
//   then turns each ASCII space into `▁`. A Metaspace pre-tokenizer skips the prepend when the text already
//   starts with `▁`, so the same effect comes from normalisers: NFKC, Prepend `▁`, Replace ' ' → `▁`
//   (transformers.js skips normalisation of an empty text, as the reference does).
// - The reference never matches ids 0–5 (`�`, `<s>`, `</s>`, extra_token_id_1..3) against text: they are
//   left out of its trie. Registered as added tokens they would be split out of user text, and as plain
//   Unigram pieces `<s>` would win over `<`,`s`,`>`. So pieces 1–5 carry a trailing ASCII space, which no
//   normalised text can contain; id 0 stays `�`, the unknown token, whose runs are fused like the reference's.
// - Seven pieces (`:`, `://`, `▁:`, `▁:)`, `▁:(`, `):`, `▁:-)`) have a null score in vocab.json; the reference
//   adds null as 0, so they get score 0 here.
//
// Known divergences (tests/embed/model-conversion.test.ts lists them): the reference Viterbi treats a running
// score of exactly 0 as "unset", so a text that starts with one of the zero-score pieces above (`:)` …) is
// split differently; and on exact score ties (runs of one repeated character, `aaaaaaaaaa`) the reference
// keeps the later split, transformers.js the earlier. Neither can be expressed in a Unigram tokenizer.json.

export type VocabEntry = [piece: string, score: number | null]

const UNMATCHABLE_SUFFIX = ' '
const RESERVED_COUNT = 6

export function buildTokenizerJson(vocab: VocabEntry[]): object {
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [],
    normalizer: {
      type: 'Sequence',
      normalizers: [
        { type: 'NFKC' },
        { type: 'Prepend', prepend: '▁' },
        { type: 'Replace', pattern: { String: ' ' }, content: '▁' },
      ],
    },
    pre_tokenizer: null,
    post_processor: null,
    decoder: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: false },
    model: {
      type: 'Unigram',
      unk_id: 0,
      byte_fallback: false,
      vocab: vocab.map(
        ([piece, score], id): VocabEntry => [
          id > 0 && id < RESERVED_COUNT ? piece + UNMATCHABLE_SUFFIX : piece,
          score ?? 0,
        ],
      ),
    },
  }
}

export function buildTokenizerConfig(vocab: VocabEntry[], maxLength: number): object {
  const unknown = vocab[0][0]
  return {
    tokenizer_class: 'PreTrainedTokenizer',
    model_max_length: maxLength,
    padding_side: 'right',
    truncation_side: 'right',
    unk_token: unknown,
    pad_token: unknown,
    clean_up_tokenization_spaces: false,
  }
}
