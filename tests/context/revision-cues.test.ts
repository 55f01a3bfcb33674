import { describe, expect, it } from 'vitest'
import {
  confirmsPrevious,
  movesFromHome,
  readsAsRevision,
  speaksOfListener,
  tellsOwnMove,
  tellsPastEvent,
  withoutRevisionCues,
} from '../../worker/context/revision-cues'

// Sentences written for this test, in neither half of bench/updates/update-set.json nor the synthetic set.
describe('readsAsRevision', () => {
  it.each([
    'Switched my electricity to Octopus in March.',
    'We changed to a fortnightly veg box.',
    'Traded the scooter in for an e-bike.',
    'My sister quit the choir after ten years.',
    "I don't eat meat any more.",
    'He no longer works nights at the depot.',
    'Nowadays the kids walk to school on their own.',
    'Correction: the meeting room is B12, not B21.',
    'Actually, my niece is seven, not six.',
    "The gym's owner retired, so a new one runs it.",
    'I take the tram these days, since the line opened.',
  ])('reads a change in %j', (text) => {
    expect(readsAsRevision(text)).toBe(true)
  })

  it.each([
    'Went back to the allotment to pick the beans.',
    'My uncle fixed the fence on Sunday.',
    'Right now I am eating a sandwich at my desk.',
    'I just now saw the heron by the canal.',
    'The concert was loud but brilliant.',
    'Our lodger pays the rent on the first of the month.',
    'I have been knitting a scarf for my nephew.',
    'Seeing the old harbour changed my mind about the town.',
    'Now I want to learn to sail as well.',
    'I dropped off the spare keys at the neighbours.',
    "I won't quit the course, however hard it gets.",
  ])('reads no change in %j', (text) => {
    expect(readsAsRevision(text)).toBe(false)
  })

  it('leaves the subject when the cue is taken out', () => {
    expect(withoutRevisionCues('These days I bake rye bread.')).not.toMatch(/days/)
    expect(withoutRevisionCues('These days I bake rye bread.')).toMatch(/rye bread/)
  })
})

describe('tellsPastEvent', () => {
  it('tells an event at a past time from a standing fact', () => {
    expect(tellsPastEvent('We ran the coastal 10k two weeks ago.')).toBe(true)
    expect(tellsPastEvent('Last Saturday the band played at the fete.')).toBe(true)
    expect(tellsPastEvent('I keep bees on the roof of the garage.')).toBe(false)
    expect(tellsPastEvent('My accountant is based in Derby.')).toBe(false)
  })
})

describe('speaksOfListener', () => {
  it("tells the listener's news from the speaker's", () => {
    expect(speaksOfListener("So you don't sing in the choir any more?")).toBe(true)
    expect(speaksOfListener('Your landlord sounds awful.')).toBe(true)
    expect(speaksOfListener('I told you we sold the van.')).toBe(false)
    expect(speaksOfListener('Swapped the van for an estate car.')).toBe(false)
  })
})

describe('movesFromHome', () => {
  it("takes a move as revising the speaker's own home, not someone else's", () => {
    expect(movesFromHome("We're renting near the canal in Bath.", 'We have moved to Frome at last.')).toBe(true)
    expect(movesFromHome('I live above the chemist on Park Lane.', 'I relocated to Cardiff for the new post.')).toBe(
      true,
    )
    expect(movesFromHome('My aunt lives in Truro.', 'We moved to Exeter in May.')).toBe(false)
    expect(movesFromHome('I live above the chemist on Park Lane.', 'The chemist moved to a bigger shop.')).toBe(false)
  })
})

describe('tellsOwnMove', () => {
  it("tells the speaker's own move from another's", () => {
    expect(tellsOwnMove("We've moved to a cottage outside Hexham.")).toBe(true)
    expect(tellsOwnMove('Moved house again, third time in two years.')).toBe(true)
    expect(tellsOwnMove('The bakery moved to the corner of Fore Street.')).toBe(false)
  })
})

describe('confirmsPrevious', () => {
  it.each(['Yep, since last week.', "That's correct.", 'Exactly, the blue one.', 'Yeah that was it'])(
    'confirms: %j',
    (text) => expect(confirmsPrevious(text)).toBe(true),
  )
  it.each(['No, still the old one.', 'Not quite, it was Tuesday.', 'Hmm, I am not sure.'])('does not: %j', (text) =>
    expect(confirmsPrevious(text)).toBe(false),
  )
})
