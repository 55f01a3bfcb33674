import { type Language, isStopWord, wordStem, words } from '../text/text-analysis'
import { FORGET_CUES, type LanguageCues } from './forget-cues'
import { FORGET_TUNING, type ForgetTuning } from './forget-tuning'

/** How much a clause reads like a request to forget, and the words that frame it rather than name its topic. */
export interface ClauseCues {
  /**
   * 1 per kind of cue it holds (asking: an addressed verb of forgetting, or of removing what was said; retracting: a
   * retracting word, or a negated truth or keeping word), plus `pointingWeight` for a pointing word or a negation.
   */
  score: number
  /** Its cue, negation and pointing words, as `words` gives them: taken out of the topic. */
  frame: ReadonlySet<string>
}

/** One cue entry: the stems of its words (the words themselves for function words), every one of which a clause must hold. */
type CueEntry = readonly string[]

type ReadCues = { readonly [K in keyof LanguageCues]: readonly CueEntry[] }

/** The roles whose words are matched through the stemmer; the others are function words, matched as written. */
const STEMMED_ROLES = new Set<keyof LanguageCues>([
  'forgetting',
  'removing',
  'retracting',
  'truth',
  'keeping',
  'pointing',
  'recalling',
])

const read = new Map<Language, ReadCues>()

/** A language's cues as entries of stems (or words), read once. */
function readCues(language: Language): ReadCues {
  let found = read.get(language)
  if (!found) {
    const cues = FORGET_CUES[language]
    found = Object.fromEntries(
      (Object.keys(cues) as (keyof LanguageCues)[]).map((role) => {
        const entries = cues[role].split('|').filter((entry) => entry !== '')
        const asRead = (entry: string) =>
          STEMMED_ROLES.has(role) ? words(entry).map((word) => wordStem(word, language)) : words(entry)
        // Endings are matched as written, not as words.
        return [role, role === 'pastEndings' ? entries.map((entry) => [entry]) : entries.map(asRead)]
      }),
    ) as unknown as ReadCues
    read.set(language, found)
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
    languages.some((language) => readCues(language).joining.some((entry) => entry.length === 1 && entry[0] === first))
  )
}

/** A clause's words read in one language: where each role's entries match. */
class ReadClause {
  readonly stems: string[]
  /** Each word's stem without the object pronoun it ends with (`clitics`), when it has one. */
  readonly bareStems: (string | undefined)[]

  constructor(
    readonly words: readonly string[],
    readonly language: Language,
    readonly cues: ReadCues,
    readonly tuning: ForgetTuning,
  ) {
    this.stems = words.map((word) => wordStem(word, language))
    this.bareStems = words.map((word) => {
      const clitic = cues.clitics.find(([ending]) => word.length > ending.length + 3 && word.endsWith(ending))
      return clitic && wordStem(word.slice(0, -clitic[0].length), language)
    })
  }

  /**
   * Where the entries of a stemmed role match: all of an entry's words, each at its first place, one of them at a place
   * `allowed` admits (given the cue stem that matched there).
   */
  stemmed(entries: readonly CueEntry[], allowed: (at: number, cue: string) => boolean = () => true): number[] {
    const places: number[] = []
    const matches = (at: number, cue: string) =>
      this.stemMatches(this.stems[at], cue) || this.stemMatches(this.bareStems[at], cue)
    for (const entry of entries) {
      const at = entry.map((cue) => this.stems.findIndex((_, i) => matches(i, cue)))
      if (at.every((index) => index >= 0) && at.some((index, i) => allowed(index, entry[i]))) places.push(...at)
    }
    return places.sort((a, b) => a - b)
  }

  /** Where the words of a function-word role's entries stand: every place of each (a clause may say "not" twice). */
  written(entries: readonly CueEntry[]): number[] {
    const places: number[] = []
    for (const entry of entries)
      if (entry.every((cue) => this.words.includes(cue)))
        this.words.forEach((word, at) => entry.includes(word) && places.push(at))
    return places.sort((a, b) => a - b)
  }

  /** Whether a word's stem is a cue's: the same, or, for a cue of `cuePrefixLetters` or more, starting with it. */
  private stemMatches(stem: string | undefined, cue: string): boolean {
    return stem !== undefined && (stem === cue || (cue.length >= this.tuning.cuePrefixLetters && stem.startsWith(cue)))
  }
}

function cuesIn(clauseWords: readonly string[], language: Language, tuning: ForgetTuning): ClauseCues {
  const cues = readCues(language)
  const clause = new ReadClause(clauseWords, language, cues, tuning)
  const negations = clause.written(cues.negations)
  const speakers = clause.written(cues.speakers)
  // A verb after its subject (the speaker or another person) tells what they did or do: "I forgot", "I never remember".
  const toldOf = (at: number) => speakers.some((place) => place < at && at - place <= tuning.subjectReach)
  // The clause is about the speaker's own memory ("ya no me acuerdo", "je ne sais plus"): nothing in it asks.
  if (clause.stemmed(cues.recalling).some(toldOf)) return { score: 0, frame: new Set() }
  const asking = askingVerbs(clause, negations, toldOf)
  const nearNegation = (at: number) =>
    negations.some((place) => place !== at && Math.abs(place - at) <= tuning.negationReach)
  const retracting = [
    ...clause.stemmed(cues.retracting),
    ...clause.stemmed(cues.truth, nearNegation),
    ...clause.stemmed(cues.keeping, nearNegation),
  ]
  const pointing = clause.stemmed(cues.pointing)
  // A negated clause beside a request is often the retracted statement itself ("I'm not allergic to bee stings at
  // all — so that's not true anymore"): it weighs as a pointer does.
  const pointer = pointing.length > 0 || negations.length > 0
  const score = (asking.length > 0 ? 1 : 0) + (retracting.length > 0 ? 1 : 0) + (pointer ? tuning.pointingWeight : 0)
  // Only the first asking word frames the request: a later one is more often its topic ("forget the bit where I
  // talked about dropping out").
  // The words that address the listener, point back or name the memory ("could you", "from your notes") frame it too.
  const framingWords = [cues.pointers, cues.storage, cues.addressing, cues.openers]
  const framing =
    score > 0
      ? [
          ...asking.slice(0, 1),
          ...retracting,
          ...negations,
          ...pointing,
          ...framingWords.flatMap((role) => clause.written(role)),
        ]
      : []
  const frame = new Set([...framing, ...clause.written(cues.filler)].map((at) => clauseWords[at]))
  return { score, frame }
}

/**
 * Where the clause's verbs of forgetting, and of removing what was said or stored, stand when addressed to the
 * listener: not in a past form, not after their subject, and either at the clause's start (an imperative, after
 * openers, fillers and negations only) or in a clause that addresses the listener ("could you", "puedes", "kannst du").
 */
function askingVerbs(clause: ReadClause, negations: readonly number[], toldOf: (at: number) => boolean): number[] {
  const { cues, words: clauseWords, tuning } = clause
  const addressing = clause.written(cues.addressing).length > 0
  const openers = new Set(clause.written(cues.openers))
  const passed = new Set([...clause.written(cues.filler), ...clause.written(cues.negations)])
  // An imperative opens its clause, or follows an opener ("so drop that", "así que olvida eso"), fillers aside.
  const atStart = (at: number) => {
    let before = at - 1
    while (before >= 0 && passed.has(before)) before--
    return before < 0 || openers.has(before)
  }
  // A past form is the cue's stem and a past ending ("deleted", "olvidado"), not a word that ends like one ("olvida").
  const past = (at: number, cue: string) =>
    cues.pastEndings.some(([ending]) => {
      const word = clauseWords[at]
      return word.endsWith(ending) && wordStem(word.slice(0, -ending.length), clause.language).startsWith(cue)
    })
  const addressed = (at: number, cue: string) => !past(at, cue) && !toldOf(at) && (addressing || atStart(at))
  // "Don't forget to …", "vergiss nicht", "n'oublie pas" ask to remember.
  const negated = (at: number) =>
    negations.some((place) => place === at + 1 || (place < at && at - place <= tuning.negatedForgettingReach))
  return [
    ...clause.stemmed(cues.forgetting, (at, cue) => addressed(at, cue) && !negated(at)),
    ...clause.stemmed(cues.removing, (at, cue) => addressed(at, cue) && removesWhatWasSaid(clause, at)),
  ].sort((a, b) => a - b)
}

/**
 * Whether the removing verb at `at` takes what was said or stored as its object ("delete it", "drop that bit", "bórralo",
 * "lösch das aus deinem Speicher", "delete my address") rather than a thing of the present ("delete the first paragraph
 * of my invitation"): a pointer or pointing word within `objectReach` words of it, a storage word anywhere in the
 * clause, an object pronoun as its ending, the speaker's possessive right after it, or no content word after it.
 */
function removesWhatWasSaid(clause: ReadClause, at: number): boolean {
  const { cues, words: clauseWords, language, tuning } = clause
  // The verb's reach ends at an opener after it: "… and make it funnier" is another verb's.
  const nextOpener = clause.written(cues.openers).find((place) => place > at) ?? clauseWords.length
  const close = (place: number) => place !== at && place < nextOpener && Math.abs(place - at) <= tuning.objectReach
  const pointing = clause.stemmed(cues.pointing)
  // A pointer before a noun is its determiner ("das Komma löschen"), unless the noun is a pointing word ("that bit").
  const determines = (place: number) =>
    place + 1 !== at && !pointing.includes(place + 1) && !isStopWord(clauseWords[place + 1] ?? '', language)
  const pointers = clause.written(cues.pointers).filter((place) => !determines(place))
  if ([...pointers, ...pointing].some(close)) return true
  if (clause.written(cues.storage).length > 0 || clause.bareStems[at] !== undefined) return true
  // What follows is what was said of the speaker ("delete my address"), or a fact ("löschen, wie viel wir gespart haben").
  if (clause.written([...cues.possessives, ...cues.joining]).includes(at + 1)) return true
  // Nothing named on either side (a German infinitive stands after its object): "Tu peux supprimer.", "scrap it".
  const lastOpener = clause.written(cues.openers).findLast((place) => place < at) ?? -1
  const frame = new Set(clause.written([...cues.addressing, ...cues.filler, ...cues.negations]))
  const named = (word: string, place: number) => !frame.has(place) && !isStopWord(word, language)
  return !clauseWords.some(
    (word, place) => place > lastOpener && place < nextOpener && place !== at && named(word, place),
  )
}
