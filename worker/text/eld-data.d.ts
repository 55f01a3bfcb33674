// The files of `eld` that `ngram-detector.ts` reads (plain JavaScript without declarations of their own).
declare module '*/eld/src/ngrams/extrasmall.js' {
  /** The n-gram table: languages by number, and each n-gram's score per language number (less 53). */
  export const ngramsData: {
    type: string
    languages: Record<string, string>
    ngrams: Record<string, Record<string, number>>
  }
}
declare module '*/eld/src/dictionary.js' {
  /** Each byte value's one-character stand-in. */
  export const dictionary: string[]
}
declare module '*/eld/src/regexPatterns.js' {
  /** What separates words: every run of non-letters. */
  export const separators: RegExp
}
declare module '*/eld/src/avgScore.js' {
  /** Each language's usual top score in a correct detection. */
  export const avgScore: Record<string, number>
}
