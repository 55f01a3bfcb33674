import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { speakerNameWords, withoutSpeakerNames } from '../../worker/rank/speaker-names'

describe('speakerNameWords', () => {
  it('takes the lowercase words of named roles, not the generic roles or stop words', () => {
    expect([...speakerNameWords(['Melanie', 'user', 'Assistant', 'system', 'Dr. Ann Lee', 'The Boss'])].sort()).toEqual(
      ['ann', 'boss', 'dr', 'lee', 'melanie'],
    )
    expect(speakerNameWords(['user', 'assistant'])).toEqual(new Set())
  })
})

describe('withoutSpeakerNames', () => {
  const speakers = ['Caroline', 'Melanie']

  it.each([
    ['What did Melanie paint?', 'What did paint?'],
    ["What is Caroline's identity?", 'What is identity?'],
    ['What is Caroline’s identity?', 'What is identity?'],
    ['When did MELANIE and caroline meet?', 'When did and meet?'],
    ['What did Melanies paint?', 'What did Melanies paint?'],
    ['What did the user ask about the assistant?', 'What did the user ask about the assistant?'],
  ])('%j → %j', (text, expected) => {
    expect(withoutSpeakerNames(text, [...speakers, 'user', 'assistant'])).toBe(expected)
  })

  it('keeps the text when it names nobody, when there are no named speakers, or when only names would be left', () => {
    const text = 'What did she paint last summer?'
    expect(withoutSpeakerNames(text, speakers)).toBe(text)
    expect(withoutSpeakerNames('Melanie paints.', [])).toBe('Melanie paints.')
    expect(withoutSpeakerNames("Melanie? Caroline's!", speakers)).toBe("Melanie? Caroline's!")
  })

  const word = fc.stringMatching(/^[a-z]{2,8}$/)
  it('leaves no name word, keeps every other word in order, and is idempotent', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(word, fc.constantFrom('Melanie', "Caroline's", 'MELANIE')), { minLength: 1, maxLength: 12 }),
        (words) => {
          const text = words.join(' ')
          const out = withoutSpeakerNames(text, speakers)
          const others = words.filter((w) => !/^(melanie|caroline('s)?)$/i.test(w))
          if (others.length === 0) {
            expect(out).toBe(text)
            return
          }
          expect(out.split(' ')).toEqual(others)
          expect(withoutSpeakerNames(out, speakers)).toBe(out)
        },
      ),
    )
  })
})
