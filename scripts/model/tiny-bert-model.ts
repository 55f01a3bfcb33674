// Writes a tiny BERT-shaped model folder, laid out as transformers.js exports of multilingual BERT models are
// (multilingual-e5-small's among them): config.json, tokenizer.json, tokenizer_config.json and onnx/model.onnx with
// its int8 twin onnx/model_quantized.onnx (dtype 'q8'). The real multilingual weights cannot be downloaded here, so
// the tests that prove a multilingual model's loading path, in Node and in the browser, load this one instead.
// Its vocabulary covers several scripts (Latin, Cyrillic, Greek, Arabic letters; Chinese characters; Japanese kana)
// and leaves out Devanagari, so a Hindi text is one the model cannot read.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { EmbeddingOptions } from '../../src/types'
import { BERT_SPECIAL_TOKENS, buildBertTokenizerConfig, buildBertTokenizerJson } from './bert-tokenizer-json.js'
import { buildTinyBertOnnx, type TinyBertShape } from './tiny-bert-onnx.js'

/** The embedding options docs/models.md gives multilingual-e5-small, word for word: the tests load this model with them. */
export const MULTILINGUAL_E5_EMBEDDING = {
  pooling: 'mean',
  normalize: true,
  queryPrefix: 'query: ',
  documentPrefix: 'passage: ',
  dtype: 'q8',
  languages: 'all',
} as const satisfies EmbeddingOptions

const SHAPE: TinyBertShape = { hidden: 64, maxPositions: 512 }

/** Each alphabet's letters become a word-initial piece and a `##` continuation, so any word in it tokenizes. */
const ALPHABETS = [
  'abcdefghijklmnopqrstuvwxyzàáâãäåçèéêëìíîïñòóôõöøùúûüýßœæ',
  'абвгдеёжзийклмнопрстуфхцчшщъыьэюяіїєґ',
  'αβγδεζηθικλμνξοπρσςτυφχψωάέήίόύώϊϋ',
  'ءآأؤإئابةتثجحخدذرزسشصضطظعغفقكلمنهوىي',
  'ぁあいうえおかがきぎくぐけげこごさざしじすずせぜそぞただちぢっつづてでとどなにぬねのはばぱひびぴふぶぷへべぺほぼぽまみむめもゃやゅゆょよらりるれろわをん',
  'ァアイウエオカガキギクグケゲコゴサザシジスズセゼソゾタダチヂッツヅテデトドナニヌネノハバパヒビピフブプヘベペホボポマミムメモャヤュユョヨラリルレロワヲンー',
  '0123456789',
]

/** Common Chinese characters: BERT's normaliser splits Chinese into single characters, so these are its pieces. */
const HAN =
  '的一是不了人我在有他这中大来上个国到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共风战干接它许八特觉望直服毛林题建南度统色字请交爱让认算论百吃义科怎元社术结六功指思非流每青管夫连远资队跟带花快条院变联言权往展该领传近留红治决周保达办运武半候七必城父强步完革深区即求品士转量空甚众技轻程告江语英基派满式李息写呢识极令黄德收脸钱党倒未持取设始版双历越史商千片容研像找友孩站广改议形委早房音火际则首单据导影失拿网香似斯专石若兵弟谁校读志飞观争究包组造落视济喜离虽坏兴切突医住猫狗妹姐哥弟咖啡茶喝睡觉叫名字每早上海京朋友工作喜欢'

/** Whole words the tests' sentences use, as a real vocabulary has its language's frequent words. */
const WORDS = [
  'query',
  'passage',
  'my',
  'sister',
  'lives',
  'in',
  'and',
  'works',
  'as',
  'a',
  'doctor',
  'dog',
  'cat',
  'coffee',
  'моя',
  'мою',
  'сестра',
  'живёт',
  'в',
  'москве',
  'и',
  'работает',
  'врачом',
  'я',
  'каждое',
  'утро',
  'пью',
  'кофе',
  'собаку',
  'зовут',
  'как',
  'где',
  'η',
  'αδελφή',
  'μου',
  'μένει',
  'στην',
  'αθήνα',
]

const PUNCTUATION = '.,!?:;\'"()-。，、？！：；（）'

/** The model's vocabulary: the special tokens first, then every piece once, in a fixed order. */
export function tinyBertVocabulary(): string[] {
  const letters = ALPHABETS.flatMap((alphabet) => [...alphabet])
  const pieces = [
    ...BERT_SPECIAL_TOKENS,
    ...PUNCTUATION,
    ...letters,
    ...letters.map((letter) => `##${letter}`),
    ...HAN,
    ...WORDS,
  ]
  return [...new Set(pieces)]
}

/** Writes the model's files into `folder` (created if missing). */
export function writeTinyBertModel(folder: string): void {
  const vocabulary = tinyBertVocabulary()
  mkdirSync(join(folder, 'onnx'), { recursive: true })
  const json = (file: string, value: object) => writeFileSync(join(folder, file), JSON.stringify(value))
  json('config.json', {
    model_type: 'bert',
    architectures: ['BertModel'],
    hidden_size: SHAPE.hidden,
    num_hidden_layers: 0,
    max_position_embeddings: SHAPE.maxPositions,
    type_vocab_size: 2,
    vocab_size: vocabulary.length,
    pad_token_id: 0,
  })
  json('tokenizer.json', buildBertTokenizerJson(vocabulary))
  json('tokenizer_config.json', buildBertTokenizerConfig(SHAPE.maxPositions))
  writeFileSync(join(folder, 'onnx/model.onnx'), buildTinyBertOnnx(vocabulary, SHAPE, 'fp32'))
  writeFileSync(join(folder, 'onnx/model_quantized.onnx'), buildTinyBertOnnx(vocabulary, SHAPE, 'q8'))
}
