/**
 * Korean's term for a word (`language-rules.ts`): a space-separated word (eojeol) is a noun with its particles
 * (학원비는, 학원비로, 부평에서), so the longest particle a word ends in is taken off when at least one syllable is
 * left. Particles only: verb and adjective endings are too irregular for a suffix list.
 */

/** Case, topic, and connective particles, with the copula's common forms, longest first. */
const PARTICLES = [
  '에서부터',
  '으로부터',
  '이라고요',
  '에서는',
  '에서도',
  '으로는',
  '으로도',
  '에게서',
  '한테서',
  '이라고',
  '이에요',
  '입니다',
  '께서는',
  '에서',
  '에게',
  '한테',
  '께서',
  '으로',
  '까지',
  '부터',
  '처럼',
  '보다',
  '이랑',
  '하고',
  '에는',
  '에도',
  '로는',
  '라고',
  '예요',
  '이나',
  '이다',
  '이',
  '가',
  '은',
  '는',
  '을',
  '를',
  '의',
  '에',
  '께',
  '로',
  '와',
  '과',
  '도',
  '만',
  '랑',
]

export function stemKorean(word: string): string {
  for (const particle of PARTICLES)
    if (word.length > particle.length && word.endsWith(particle)) return word.slice(0, -particle.length)
  return word
}
