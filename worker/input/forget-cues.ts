import type { Language } from '../text/text-analysis'

/**
 * The words a request to forget or retract is framed with, in one language, grouped by what they do in it. They are
 * words, not phrasings: `forget-cue-score.ts` matches them through the language's stemmer (any form the stemmer folds
 * together matches, and a longer form of a stem, "olvídalo" for "olvida": `FORGET_TUNING.cuePrefixLetters`), in any
 * order and wherever they stand in a clause, so that a wording nobody listed still scores by the words it shares with
 * every other wording of the same request. An entry of several words ("after all") matches a clause that holds all of
 * them. Every cue word is also a frame word: it is taken out of the topic that is ranked.
 */
export interface LanguageCues {
  /** Asking for a deletion: "forget", "delete", "ignore", "scratch" … (a cue on its own). */
  asking: readonly string[]
  /** Saying that a stated thing no longer holds: "anymore", "after all" … (a cue on its own). */
  retracting: readonly string[]
  /**
   * A cue only beside one of `negations` in the same clause: keeping ("don't keep", "nicht gespeichert"), truth ("not
   * true", "ya no es cierto"), and "longer"/"more" ("no longer", "nicht mehr", "n'est plus").
   */
  negated: readonly string[]
  /** What negates a clause: "not", "n't" (read as the word "t"), "nicht", "ne" … */
  negations: readonly string[]
  /**
   * Words that point back at what was said rather than name it ("what I told you about", "the bit", "lo de", "die Sache
   * mit"): weaker than a cue (`FORGET_TUNING.pointingWeight`), and taken out of the topic.
   */
  pointing: readonly string[]
  /** Politeness and fillers ("please", "bitte", "por favor"): no cue, but no topic either, so taken out of it. */
  filler: readonly string[]
  /**
   * Words that open a clause continuing the one before the comma ("Vergiss bitte, dass ich …", "borra, que …"): the
   * object of a request follows its verb, so no clause break is made before them.
   */
  joining: readonly string[]
}

/**
 * The cues of each language the request may be written in: the message's own (detected by the text analysis) and
 * English, which a request in another language often borrows. Written from the ways a language asks to forget and
 * says that something is no longer so (verbs of deleting and of not keeping, words of no longer holding), not from the
 * requests of a set; the sets they were measured on are in BENCHMARKS.md, "Forget requests in any wording".
 */
export const FORGET_CUES: Readonly<Record<Language, LanguageCues>> = {
  en: {
    asking: [
      'forget',
      'forgetting',
      'delete',
      'erase',
      'remove',
      'wipe',
      'scratch',
      'strike',
      'drop',
      'disregard',
      'ignore',
      'unlearn',
      'discard',
      'purge',
      'rid',
      'off the record',
      'never mind',
      'nevermind',
      'let go',
      'scrap',
      'retract',
      'undo',
      'take back',
    ],
    retracting: ['anymore', 'any more', 'after all', 'out of date', 'outdated', 'obsolete', 'wrong', 'mistaken'],
    negated: [
      'keep',
      'store',
      'stored',
      'storing',
      'save',
      'remember',
      'retain',
      'hold',
      'record',
      'true',
      'accurate',
      'correct',
      'right',
      'case',
      'relevant',
      'valid',
      'longer',
    ],
    negations: [
      'not',
      'no',
      'never',
      'stop',
      't',
      'don',
      'didn',
      'doesn',
      'isn',
      'aren',
      'wasn',
      'weren',
      'won',
      'wouldn',
      'shouldn',
    ],
    pointing: [
      'said',
      'say',
      'told',
      'tell',
      'mentioned',
      'talked',
      'wrote',
      'shared',
      'thing',
      'bit',
      'stuff',
      'part',
      'memory',
      'on file',
      'on record',
      'anything',
      'everything',
    ],
    filler: ['please', 'pls', 'kindly', 'actually', 'anyway', 'honestly', 'just', 'hey', 'hi', 'ok', 'okay'],
    joining: ['that', 'what', 'how', 'which', 'where', 'when'],
  },
  es: {
    asking: [
      'olvida',
      'olvidar',
      'olvídate',
      'olvides',
      'borra',
      'bórralo',
      'borrar',
      'borres',
      'elimina',
      'eliminar',
      'quita',
      'quítalo',
      'quitar',
      'suprime',
      'ignora',
      'ignorar',
      'descarta',
      'tacha',
      'tachar',
    ],
    retracting: ['equivocada', 'equivocado', 'obsoleto', 'desactualizado'],
    negated: [
      'recuerdes',
      'recordar',
      'guardes',
      'guardar',
      'guardado',
      'conserves',
      'verdad',
      'cierto',
      'ya',
      'aplica',
      'cuenta',
    ],
    negations: ['no', 'nunca', 'deja'],
    pointing: ['dije', 'conté', 'dicho', 'contado', 'comenté', 'lo de', 'tema', 'memoria', 'parte', 'todo'],
    filler: ['favor', 'porfa'],
    joining: ['que', 'lo', 'cuánto', 'cuánta', 'dónde', 'cómo'],
  },
  de: {
    asking: [
      'vergiss',
      'vergessen',
      'lösch',
      'lösche',
      'löschen',
      'entferne',
      'entfernen',
      'streich',
      'streiche',
      'streichen',
      'ignoriere',
      'ignorieren',
      'verwirf',
    ],
    retracting: ['vorbei', 'überholt', 'veraltet', 'hinfällig', 'erledigt', 'falsch'],
    negated: [
      'mehr',
      'stimmt',
      'wahr',
      'richtig',
      'gilt',
      'gespeichert',
      'speichern',
      'speicherst',
      'merken',
      'merkst',
      'behalten',
      'behältst',
      'aufheben',
    ],
    negations: ['nicht', 'kein', 'keine', 'nie', 'niemals'],
    pointing: ['gesagt', 'erzählt', 'geschrieben', 'sache', 'das mit', 'gedächtnis', 'speicher', 'alles'],
    filler: ['bitte', 'doch', 'mal', 'ehrlich'],
    joining: ['dass', 'was', 'wie', 'wo', 'wann', 'ob', 'welche', 'welcher'],
  },
  fr: {
    asking: [
      'oublie',
      'oublier',
      'oubliez',
      'efface',
      'effacer',
      'supprime',
      'supprimer',
      'retire',
      'retirer',
      'enlève',
      'enlever',
      'ignore',
      'ignorer',
      'raye',
      'rayer',
      'laisse tomber',
    ],
    retracting: ['fini', 'faux', 'obsolète', 'trompé', 'trompée'],
    negated: [
      'plus',
      'vrai',
      'cas',
      'compte',
      'valable',
      'garde',
      'gardes',
      'garder',
      'retiens',
      'retenir',
      'conserve',
      'conserver',
      'enregistre',
      'enregistrer',
    ],
    negations: ['ne', 'n', 'pas', 'jamais'],
    pointing: ['dit', 'raconté', 'parlé', 'écrit', 'histoire', 'concerne', 'mémoire', 'propos', 'tout'],
    filler: ['plaît', 'stp', 'svp'],
    joining: ['que', 'qu', 'ce', 'combien', 'où', 'comment'],
  },
}
