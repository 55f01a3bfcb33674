import type { Language } from './language-rules'
import { detectNgrams, type NgramDetection } from './ngram-detector'
import { TEXT_TUNING } from './text-tuning'

/**
 * The language a text is written in, for its words' rules (`language-rules.ts`). Chinese, Japanese and Korean are
 * told by their scripts alone (kana make Japanese, Hangul Korean, Han without either Chinese); every other text by
 * `eld`'s detector (character n-grams, 60 languages; `ngram-detector.ts`), on its first `languageSampleChars`
 * characters (`text-tuning.ts`).
 *
 * A detector errs on short texts between close languages (Russian and Ukrainian, Hindi and Marathi, Spanish and
 * Catalan), so a caller that knows which languages are likely (the languages of a message's other sentences, of the
 * history a request is asked about) passes them: the text is then taken to be in the one of them the detector scores
 * highest, unless it scores none of them at all.
 */

const { languageSampleChars, likelyLanguageShare, messageLanguageShare } = TEXT_TUNING

const CJK = /[\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u
const HANGUL = /\p{Script=Hangul}/gu
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/gu
const HAN = /\p{Script=Han}/gu
const LETTER = /\p{L}/gu

/** What tells a text's language by its n-grams: `detectNgrams`, or another for comparison (the perf bench's `eld`). */
export type NgramDetector = (text: string, withScores: boolean) => NgramDetection

const count = (text: string, pattern: RegExp): number => text.match(pattern)?.length ?? 0

/** Chinese, Japanese or Korean when most of the text's letters are in their scripts; undefined otherwise. */
function byScript(sample: string): Language | undefined {
  if (!CJK.test(sample)) return undefined
  const letters = count(sample, LETTER)
  if (letters === 0) return undefined
  const hangul = count(sample, HANGUL)
  const kana = count(sample, KANA)
  const han = count(sample, HAN)
  if (2 * (hangul + kana + han) <= letters) return undefined
  if (hangul >= kana + han) return 'ko'
  return kana > 0 ? 'ja' : 'zh'
}

/**
 * The language of `text`, or undefined when the detector cannot tell. `likely`: the languages to prefer (above): the
 * best-scored of them wins when it scores within `likelyLanguageShare` of the detector's pick, or when the detector is
 * not sure; an empty list prefers none.
 */
export function detectLanguage(
  text: string,
  likely: readonly Language[] = [],
  detector: NgramDetector = detectNgrams,
): Language | undefined {
  const sample = text.length > languageSampleChars ? text.slice(0, languageSampleChars) : text
  const scripted = byScript(sample)
  if (scripted !== undefined) return scripted
  const result = detector(sample, likely.length > 0)
  const picked = result.language === '' ? undefined : result.language
  if (picked !== undefined && likely.includes(picked)) return picked
  const reliable = picked !== undefined && result.reliable
  if (likely.length > 0) {
    const { scores } = result
    let best: Language | undefined
    for (const language of likely)
      if ((scores[language] ?? 0) > (best === undefined ? 0 : scores[best])) best = language
    if (best !== undefined && (!reliable || scores[best] >= likelyLanguageShare * scores[picked!])) return best
  }
  return reliable ? picked : undefined
}

/**
 * The language of each sentence of one message (`texts`, in order): each sentence is detected on its own, and the
 * languages holding at least `messageLanguageShare` of the detected characters are the message's; a sentence
 * detected in one of them keeps it, any other (too short to tell, or taken for a close language) takes the
 * message's main one. A message none of whose sentences can be told is detected as a whole. Only the message
 * itself is read, so a sentence gets the same language however the history was added.
 */
export function sentenceLanguages(
  texts: readonly string[],
  detector: NgramDetector = detectNgrams,
): (Language | undefined)[] {
  const detected = texts.map((text) => detectLanguage(text, [], detector))
  const chars = new Map<Language, number>()
  let total = 0
  detected.forEach((language, i) => {
    if (language === undefined) return
    chars.set(language, (chars.get(language) ?? 0) + texts[i].length)
    total += texts[i].length
  })
  if (total === 0) {
    const whole = detectLanguage(texts.join(' '), [], detector)
    return texts.map(() => whole)
  }
  const own = [...chars].filter(([, count]) => count >= messageLanguageShare * total).sort((a, b) => b[1] - a[1])
  if (own.length === 1) return texts.map(() => own[0][0])
  const languages = own.map(([language]) => language)
  return detected.map((language) => (language !== undefined && languages.includes(language) ? language : languages[0]))
}
