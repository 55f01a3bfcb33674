// The lists of `stopword` (it ships no types) that `language-rules.ts` takes: each language's words, lowercase.
declare module 'stopword' {
  export const fas: string[]
  export const kor: string[]
  export const pol: string[]
  export const ukr: string[]
}
