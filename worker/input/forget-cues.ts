import type { Language } from '../text/text-analysis'
import { GERMANIC_CUES } from './forget-cues-germanic'
import { ROMANCE_CUES } from './forget-cues-romance'

/**
 * The words a request to forget or retract is framed with, in one language, grouped by the role they play in it. They
 * are words, not phrasings: `forget-cue-score.ts` matches the verbs and keeping, truth and pointing words through the
 * language's stemmer (any form the stemmer folds together, and a longer form of a stem: `FORGET_TUNING
 * .cuePrefixLetters`), and the function words (negations, pointers, speakers, addressing words, openers) as they are
 * written, wherever they stand in a clause; so a wording nobody listed still scores by the roles its words play. An
 * entry of several words ("let go") matches a clause that holds all of them. Each list is written `a|b|c`.
 *
 * A request is told from talk about forgetting in another sense by its frame, not by its verb: a verb of forgetting
 * or removing asks for something only when addressed to the listener (an imperative at the clause's start, or beside
 * a word that addresses them, never in a past form or after its subject: "I forgot my keys", "Mon père oublie"), and a
 * verb of removing only when its object is what was said or stored ("delete it", "drop that bit", "from your notes"),
 * not a thing of the present ("delete the first paragraph of my invitation").
 */
export interface LanguageCues {
  /** Verbs of not remembering ("forget", "ignore", "disregard", "let go"): a request when addressed. */
  forgetting: string
  /** Verbs of removing ("delete", "scrap", "bin", "take off"): a request when addressed and their object was said or stored. */
  removing: string
  /** Words saying that a stated thing no longer holds ("outdated", "old news"): a cue on their own. */
  retracting: string
  /** Truth and still-so words ("true", "relevant", "longer", "mehr"): a cue beside a negation ("no longer", "not true"). */
  truth: string
  /**
   * Keeping words ("keep", "store", "on file", "remember"): a cue beside a negation unless a speaker is their subject
   * ("don't keep it", not "I never remember").
   */
  keeping: string
  /** What negates a clause: "not", "n't" (read as the word "t"), "nicht", "ne" … (as written). */
  negations: string
  /**
   * Words that point back at what was said rather than name it ("what I told you about", "the bit", "lo de"): weaker
   * than a cue (`FORGET_TUNING.pointingWeight`), and taken out of the topic.
   */
  pointing: string
  /** Pronouns standing for what was said ("it", "that", "eso", "das", "ça"), as written: a removing verb's object. */
  pointers: string
  /** Where a memory keeps things ("memory", "notes", "profile"), as written: a removing verb's object when named. */
  storage: string
  /** Object pronouns a verb carries as its ending ("bórralo", "cancellala"), as written: a pointer. */
  clitics: string
  /** The speaker's own ("my", "mis", "meine"), as written: right after a removing verb, what the speaker said of themselves. */
  possessives: string
  /**
   * Subjects and auxiliaries that make a verb the speaker's or another's act ("I", "we", "he", "j", "habe", "ho"), as
   * written: a verb after one (`FORGET_TUNING.subjectReach`) is told of, not asked for.
   */
  speakers: string
  /** Words that address the listener ("you", "please", "du", "puedes", "peux", "puoi"), as written. */
  addressing: string
  /** Words an imperative may follow at its clause's start ("so", "and", "then", "also", "alors"), as written. */
  openers: string
  /** Verbs of the speaker's own remembering or knowing: after a speaker, the clause is about their memory ("ya no me acuerdo"). */
  recalling: string
  /** Endings of past forms and participles ("ed", "ado", "é", "ato"): such a form tells what was done, it asks nothing. */
  pastEndings: string
  /** Politeness and fillers ("please", "bitte", "por favor"): no cue, but no topic either, so taken out of it. */
  filler: string
  /**
   * Words that open a clause continuing the one before the comma ("Vergiss bitte, dass ich …", "borra, que …"): the
   * object of a request follows its verb, so no clause break is made before them.
   */
  joining: string
}

/**
 * The cues of each language the request may be written in: the message's own (detected by the text analysis) and
 * English, which a request in another language often borrows. Written from the ways a language asks to forget and
 * says that something is no longer so (verbs of deleting and of not keeping, words of no longer holding), not from the
 * requests of a set; the sets they were measured on are in BENCHMARKS.md, "Forget requests in any wording".
 */
export const FORGET_CUES: Readonly<Record<Language, LanguageCues>> = {
  en: {
    forgetting: 'forget|disregard|ignore|unlearn|never mind|nevermind|let go|overlook',
    removing:
      'delete|erase|remove|wipe|scratch|strike|drop|discard|purge|rid|scrap|bin|ditch|retract|undo|take back|take off|cross off|cross out|clear|toss',
    retracting:
      'anymore|any more|after all|out of date|outdated|obsolete|wrong|mistaken|old news|thing of the past|off the table|no longer|misspoke|gone|stale|ancient history',
    truth: 'true|accurate|correct|right|case|relevant|valid|current|longer|applies|apply|happening',
    keeping:
      'keep|kept|store|stored|storing|save|saved|remember|retain|hold|holding|record|on file|track|mind|written|around',
    negations: 'not|no|never|stop|t|don|didn|doesn|isn|aren|wasn|weren|won|wouldn|shouldn|without',
    pointing:
      'said|say|told|tell|mentioned|talked|wrote|shared|thing|bit|stuff|part|comment|detail|details|info|information|memory|anything|everything|earlier|before',
    pointers: 'it|that|those|them',
    storage: 'memory|memories|notes|note|file|files|record|records|profile|mind|know',
    clitics: '',
    possessives: 'my|our',
    speakers: 'i|we|he|she|they|me|us|people',
    addressing: 'you|u|ya|your|yourself|please|pls|plz|kindly|possible|mind|free|need|can go',
    openers: 'so|and|then|also|oh|ok|okay|well|but|now|honestly|actually|anyway|yeah|yes|hey|hi|please|pls|kindly',
    recalling: 'remember|recall|know|knew|forgot|forget',
    pastEndings: 'ed|forgot|forgotten',
    filler: 'please|pls|kindly|actually|anyway|honestly|just|hey|hi|ok|okay',
    joining: 'that|what|how|which|where|when',
  },
  ...ROMANCE_CUES,
  ...GERMANIC_CUES,
}
