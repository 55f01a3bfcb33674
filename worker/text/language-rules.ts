import { stemmer as arabic } from '@orama/stemmers/arabic'
import { stemmer as dutch } from '@orama/stemmers/dutch'
import { stemmer as french } from '@orama/stemmers/french'
import { stemmer as german } from '@orama/stemmers/german'
import { stemmer as hindi } from '@orama/stemmers/indian'
import { stemmer as italian } from '@orama/stemmers/italian'
import { stemmer as portuguese } from '@orama/stemmers/portuguese'
import { stemmer as russian } from '@orama/stemmers/russian'
import { stemmer as spanish } from '@orama/stemmers/spanish'
import { stemmer as swedish } from '@orama/stemmers/swedish'
import { stemmer as turkish } from '@orama/stemmers/turkish'
import { stemmer as ukrainian } from '@orama/stemmers/ukrainian'
import { stopwords as arabicStopWords } from '@orama/stopwords/arabic'
import { stopwords as chineseStopWords } from '@orama/stopwords/mandarin'
import { stopwords as dutchStopWords } from '@orama/stopwords/dutch'
import { stopwords as frenchStopWords } from '@orama/stopwords/french'
import { stopwords as germanStopWords } from '@orama/stopwords/german'
import { stopwords as hindiStopWords } from '@orama/stopwords/indian'
import { stopwords as italianStopWords } from '@orama/stopwords/italian'
import { stopwords as japaneseStopWords } from '@orama/stopwords/japanese'
import { stopwords as portugueseStopWords } from '@orama/stopwords/portuguese'
import { stopwords as russianStopWords } from '@orama/stopwords/russian'
import { stopwords as spanishStopWords } from '@orama/stopwords/spanish'
import { stopwords as swedishStopWords } from '@orama/stopwords/swedish'
import { stopwords as turkishStopWords } from '@orama/stopwords/turkish'
import { fas, kor, pol, ukr } from 'stopword'
import { STOP_WORDS as ENGLISH_STOP_WORDS, stemEnglish } from './english'
import { stemJapanese } from './japanese'
import { stemKorean } from './korean'
import { foldedText } from './word-segmentation'

/**
 * What each language brings to the words of a text: the words that carry no topic, and how a word folds into its
 * term. The stemmers are Snowball's (`@orama/stemmers`, generated from the Snowball sources), English's is the
 * engine's own light one (`english.ts`), Japanese and Korean have light suffix strippers of their own; the stop
 * words are Snowball's lists where Snowball has one (`@orama/stopwords`), else `stopword`'s (Ukrainian, Polish,
 * Persian, Korean). Polish and Persian have stop words only: no maintained JavaScript stemmer covers them
 * (BENCHMARKS.md, "Languages"). A language without rules of its own (`NEUTRAL`) keeps every word as it is.
 */

/** An ISO 639-1 code, as the detector gives it (`de`, `zh`). */
export type Language = string

export interface LanguageRules {
  /** Words that carry no topic, normalised as `words` gives them. */
  stopWords: ReadonlySet<string>
  /** A word, as `words` gives it, → its term. Deterministic. */
  stem(word: string): string
  /**
   * Whether the language writes compounds as one word ("Eigentümerversammlung" for "Versammlung der Eigentümer"):
   * its words then also match by their character n-grams (`text-analysis.ts`).
   */
  compounds?: boolean
}

/**
 * The accents a language's writers add or leave out without changing the word ("cafe" for "café", "Jose" for
 * "José"): acute, grave, circumflex and diaeresis, and the cedilla; dropped from a term after stemming (the
 * stemmers expect them). Not the tilde, which makes another letter in Spanish (ñ) and Portuguese (ã, õ), and
 * nothing in languages whose accented letters are letters of their own (Polish, Turkish, Swedish, German's
 * umlauts, which its stemmer folds itself).
 */
const OPTIONAL_ACCENTS = /[\u0300-\u0302\u0308\u0327]/g

function withoutOptionalAccents(term: string): string {
  const decomposed = term.normalize('NFD')
  return decomposed === term ? term : decomposed.replace(OPTIONAL_ACCENTS, '').normalize('NFC')
}

/** Russian writes ё as е more often than not: one letter for both. */
function withoutYo(word: string): string {
  return word.replaceAll('ё', 'е')
}

/** A list as a set of words normalised like the text they are looked up for. */
function wordSet(list: readonly string[]): ReadonlySet<string> {
  return new Set(list.map(foldedText))
}

function rules(
  stopWords: readonly string[] | ReadonlySet<string>,
  stem: (word: string) => string = (word) => word,
  fold: (term: string) => string = (term) => term,
  compounds = false,
): LanguageRules {
  return {
    stopWords: Array.isArray(stopWords) ? wordSet(stopWords) : (stopWords as ReadonlySet<string>),
    stem: (word) => fold(stem(word)),
    compounds,
  }
}

const keep = (term: string) => term

const NEUTRAL: LanguageRules = { stopWords: new Set(), stem: (word) => word }

const RULES: Record<Language, LanguageRules> = {
  en: rules(ENGLISH_STOP_WORDS, stemEnglish),
  de: rules(germanStopWords, german, keep, true),
  fr: rules(frenchStopWords, french, withoutOptionalAccents),
  es: rules(spanishStopWords, spanish, withoutOptionalAccents),
  it: rules(italianStopWords, italian, withoutOptionalAccents),
  pt: rules(portugueseStopWords, portuguese, withoutOptionalAccents),
  nl: rules(dutchStopWords, dutch, withoutOptionalAccents, true),
  sv: rules(swedishStopWords, swedish, keep, true),
  tr: rules(turkishStopWords, turkish),
  pl: rules(pol),
  ru: rules(russianStopWords.map(withoutYo), (word) => russian(withoutYo(word))),
  uk: rules(ukr, ukrainian),
  ar: rules(arabicStopWords, arabic),
  fa: rules(fas),
  hi: rules(hindiStopWords, hindi),
  zh: rules(chineseStopWords),
  ja: rules(japaneseStopWords, stemJapanese),
  ko: rules(kor, stemKorean),
}

/** The languages with rules of their own. */
export const LANGUAGES_WITH_RULES: readonly Language[] = Object.keys(RULES)

/** The rules of `language`: its own, or `NEUTRAL` for a language without them (or none known). */
export function rulesFor(language: Language | undefined): LanguageRules {
  return (language !== undefined && RULES[language]) || NEUTRAL
}
