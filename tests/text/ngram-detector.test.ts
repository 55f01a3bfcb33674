import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { eld } from 'eld/extrasmall'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { generateHistory } from '../../bench/shared/synthetic-history'
import { splitSentences } from '../../src/core/split-sentences'
import { detectNgrams } from '../../worker/text/ngram-detector'

const CONVERSATIONS = join(__dirname, '..', '..', 'bench', 'recall', 'multilingual', 'conversations')

/** Every sentence and every whole message of the multilingual set (12 languages, code-switching included). */
function multilingualTexts(): string[] {
  return readdirSync(CONVERSATIONS).flatMap((file) => {
    const { messages } = JSON.parse(readFileSync(join(CONVERSATIONS, file), 'utf8')) as {
      messages: { content: string }[]
    }
    return messages.flatMap(({ content }) => [content, ...splitSentences(content).map((span) => span.text)])
  })
}

/** Texts at eld's edges: none, no letters, surrogate pairs, a word over 70 bytes, past 1,000 characters and 380 bytes. */
const EDGES = [
  '',
  '   ',
  '12 34 56',
  '!!! ???',
  'ok',
  'Café 😀 naïve 𝒳 résumé',
  `${'Donaudampfschifffahrtsgesellschaftskapitänskajütentürschlüsselanhänger'.repeat(2)} ist lang.`,
  'Das ist ein ganz normaler deutscher Satz. '.repeat(40),
  'Это предложение написано по-русски, чтобы проверить кириллицу. '.repeat(12),
  "Don't stop, it's John’s car`s door.",
]

function expectEqualToEld(texts: readonly string[]): void {
  for (const text of texts) {
    const reference = eld.detect(text)
    const detected = detectNgrams(text, true)
    expect({ text, language: detected.language, reliable: detected.reliable, scores: detected.scores }).toEqual({
      text,
      language: reference.language,
      reliable: reference.language !== '' && reference.isReliable(),
      scores: reference.getScores(),
    })
  }
}

describe('detectNgrams', () => {
  it('gives eld.detect’s language, scores and reliability for every text of the multilingual set', () => {
    expectEqualToEld(multilingualTexts())
  })

  it('gives eld.detect’s answer on the synthetic history and at eld’s edges', () => {
    expectEqualToEld([...generateHistory(2000).sentences.map((s) => s.text), ...EDGES])
  })

  it('gives eld.detect’s answer on any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 400 }), (text) => expectEqualToEld([text])),
      { numRuns: 500 },
    )
  })
})
