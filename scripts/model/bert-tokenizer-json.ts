// Writes a Hugging Face `tokenizer.json` (and its companion config) for a BERT WordPiece vocabulary, in the shape
// `bert-base-uncased` publishes it: BERT's normaliser (lower case, and a space on each side of every CJK character,
// so that Chinese reaches WordPiece one character at a time), its whitespace-and-punctuation pre-tokenizer, and
// `[CLS] … [SEP]` around each text. Accents are kept: the tiny test model's vocabulary spells its words with them.

/** The special tokens, in the order they take the first ids. */
export const BERT_SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'] as const

/** `vocabulary` must start with `BERT_SPECIAL_TOKENS`; a continuation piece is spelled `##piece`. */
export function buildBertTokenizerJson(vocabulary: readonly string[]): object {
  checkSpecialTokens(vocabulary)
  const id = (token: string) => vocabulary.indexOf(token)
  const special = (token: string) => ({ SpecialToken: { id: token, type_id: 0 } })
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: BERT_SPECIAL_TOKENS.map((content) => ({
      id: id(content),
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: false,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [special('[CLS]'), { Sequence: { id: 'A', type_id: 0 } }, special('[SEP]')],
      pair: [
        special('[CLS]'),
        { Sequence: { id: 'A', type_id: 0 } },
        special('[SEP]'),
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: Object.fromEntries(
        ['[CLS]', '[SEP]'].map((token) => [token, { id: token, ids: [id(token)], tokens: [token] }]),
      ),
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocabulary.map((token, index) => [token, index])),
    },
  }
}

export function buildBertTokenizerConfig(maxLength: number): object {
  return {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    tokenize_chinese_chars: true,
    strip_accents: false,
    model_max_length: maxLength,
    pad_token: '[PAD]',
    unk_token: '[UNK]',
    cls_token: '[CLS]',
    sep_token: '[SEP]',
    mask_token: '[MASK]',
    clean_up_tokenization_spaces: true,
  }
}

function checkSpecialTokens(vocabulary: readonly string[]): void {
  BERT_SPECIAL_TOKENS.forEach((token, index) => {
    if (vocabulary[index] !== token) throw new Error(`bert-tokenizer-json: id ${index} must be ${token}`)
  })
  if (new Set(vocabulary).size !== vocabulary.length) throw new Error('bert-tokenizer-json: a token appears twice')
}
