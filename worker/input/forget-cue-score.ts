import { type Language, wordStem, words } from '../text/text-analysis'
import { FORGET_CUES, type LanguageCues } from './forget-cues'
import { FORGET_TUNING, type ForgetTuning } from './forget-tuning'

/** How much a clause reads like a request to forget, and the words that frame it rather than name its topic. */
export interface ClauseCues {
  /**
   * 1 per kind of cue it holds (asking; retracting or a negated keeping or truth word), plus `pointingWeight` for a
   * pointing word or a negation.
   */
  score: number
  /** Its cue, negation and pointing words, as `words` gives them: taken out of the topic. */
  frame: ReadonlySet<string>
}

/** One cue entry: the stems of its words (the words themselves for function words), every one of which a clause must hold. */
type CueStems = readonly string[]

type StemmedCues = { readonly [K in keyof LanguageCues]: readonly CueStems[] }

const stemmed = new Map<Language, StemmedCues>()

/** A language's cues as stems, stemmed once. */
function stemmedCues(language: Language): StemmedCues {
  let found = stemmed.get(language)
  if (!found) {
    const cues = FORGET_CUES[language]
    const stemsOf = (list: readonly string[]) =>
      list.map((entry) => words(entry).map((word) => wordStem(word, language)))
    // Function words are matched as they are: stemmed, "don" (of "don't") would match "done".
    const wordsOf = (list: readonly string[]) => list.map((entry) => words(entry))
    found = {
      asking: stemsOf(cues.asking),
      retracting: stemsOf(cues.retracting),
      negated: stemsOf(cues.negated),
      negations: wordsOf(cues.negations),
      pointing: stemsOf(cues.pointing),
      filler: wordsOf(cues.filler),
      joining: wordsOf(cues.joining),
    }
    stemmed.set(language, found)
  }
  return found
}

/** The languages whose cues a message is read with: its own when it has cues, and English. */
export function cueLanguages(language: Language | undefined): Language[] {
  if (language === undefined) return Object.keys(FORGET_CUES)
  return language !== 'en' && Object.hasOwn(FORGET_CUES, language) ? [language, 'en'] : ['en']
}

/**
 * A clause's cues, read in each of `languages` (`cueLanguages`), the best-scoring language's kept (the first of them
 * on a tie). A cue word matches a word of the clause by stem (`cuePrefixLetters`: or as the start of its stem).
 */
export function clauseCues(
  clause: string,
  languages: readonly Language[],
  tuning: ForgetTuning = FORGET_TUNING,
): ClauseCues {
  const clauseWords = words(clause)
  let best: ClauseCues | undefined
  for (const language of languages) {
    const found = cuesIn(clauseWords, language, tuning)
    if (best === undefined || found.score > best.score) best = found
  }
  return best ?? { score: 0, frame: new Set() }
}

/** Whether a clause continues the one before its comma (`LanguageCues.joining`): its first word is a joining word. */
export function joinsPrevious(clause: string, languages: readonly Language[]): boolean {
  const first = words(clause)[0]
  return (
    first !== undefined &&
    languages.some((language) =>
      stemmedCues(language).joining.some((entry) => entry.length === 1 && entry[0] === first),
    )
  )
}

function cuesIn(clauseWords: readonly string[], language: Language, tuning: ForgetTuning): ClauseCues {
  const stems = clauseWords.map((word) => wordStem(word, language))
  const cues = stemmedCues(language)
  // Where in the clause each entry of a kind matches (all its words, each at its first place `allowed` admits).
  const matching = (entries: readonly CueStems[], allowed: (at: number) => boolean = () => true) => {
    const places: number[] = []
    for (const entry of entries) {
      const at = entry.map((cue) => stems.findIndex((stem, i) => allowed(i) && stemMatches(stem, cue, tuning)))
      if (at.every((index) => index >= 0)) places.push(...at)
    }
    return places.sort((a, b) => a - b)
  }
  // Where the words of function-word entries stand: every place of each (a clause may say "not" twice).
  const matchingWords = (entries: readonly CueStems[]) => {
    const places: number[] = []
    for (const entry of entries)
      if (entry.every((cue) => clauseWords.includes(cue)))
        clauseWords.forEach((word, at) => entry.includes(word) && places.push(at))
    return places.sort((a, b) => a - b)
  }
  const negations = matchingWords(cues.negations)
  const nearNegation = (at: number) => negations.some((place) => Math.abs(place - at) <= tuning.negationReach)
  const asking = matching(cues.asking)
  const retracting = [
    ...matching(cues.retracting),
    ...(negations.length > 0 ? matching(cues.negated, nearNegation) : []),
  ]
  const pointing = matching(cues.pointing)
  // A negated clause beside a request is often the retracted statement itself ("I'm not allergic to bee stings at
  // all — so that's not true anymore"): it weighs as a pointer does.
  const pointer = pointing.length > 0 || negations.length > 0
  const score = (asking.length > 0 ? 1 : 0) + (retracting.length > 0 ? 1 : 0) + (pointer ? tuning.pointingWeight : 0)
  // Only the first asking word frames the request: a later one is more often its topic ("forget the bit where I
  // talked about dropping out").
  const framing = score > 0 ? [...asking.slice(0, 1), ...retracting, ...negations, ...pointing] : []
  const frame = new Set([...framing, ...matchingWords(cues.filler)].map((at) => clauseWords[at]))
  return { score, frame }
}

/** Whether a word's stem is a cue's: the same, or, for a cue of `cuePrefixLetters` or more, starting with it. */
function stemMatches(stem: string, cue: string, tuning: ForgetTuning): boolean {
  return stem === cue || (cue.length >= tuning.cuePrefixLetters && stem.startsWith(cue))
}
