/**
 * Whether a sentence says that something the speaker stated before has changed, from how it is worded: "switched
 * to", "we moved again", "no longer", "these days", "actually it's", "now I". A later sentence on the same subject
 * supersedes an earlier one only when it reads so (`later-updates.ts`): speakers come back to their subjects all the
 * time ("Visited my sister in Dublin again"), and closeness in meaning alone cannot tell more of the same story from
 * a revision. English wordings only; a sentence in another language never reads as a revision, so it is never
 * followed or marked (a missing mark costs what the context cost before; a wrong one tells the reader that a fact
 * still standing is stale).
 */

/**
 * The wordings of a change, matched on the lower-cased sentence. Written from common English ways of saying a value
 * changed (not from the evaluation set's sentences); what each brought or cost is in BENCHMARKS.md, "Updates by
 * default".
 */
const REVISION_CUES: readonly RegExp[] = [
  // A change of the thing itself: "switched to Monzo", "changed jobs", "swapped the bike for a car".
  /\b(switch|switched|switching|swapped|swapping|replaced|traded) (to|over|from|my|our|it|the|jobs?|teams?|banks?|schools?)\b/,
  // Not "it changed my view", "changed the colour": a change of mind or look is no new value.
  /\bchanged (to|over|from|jobs?|teams?|banks?|schools?)\b/,
  // Moving house or place: "we moved to Leyton", "moved again", "moved house", "relocated".
  /\b(moved|relocated) (to|again|house|into|out|over|on|from)\b/,
  // Leaving the old value: "sold the Polo", "quit my job", "gave up teaching", "dropped Italian", "cancelled BT".
  // Not "dropped off the cakes", "dropped by", nor a negated "won't quit".
  /\b(sold|gave up|given up|cancell?ed|ditched)\b/,
  /\bdropped (?!(off|by|in|out|into|me|us|him|her|them)\b)/,
  /(?<!\b(not|never|won't|don't|didn't|can't|wouldn't) )\bquit\b/,
  /\bleft (the|my|our|his|her|it|that)\b/,
  // The old value is over: "no longer", "not any more", "anymore".
  /\bno longer\b/,
  // "Anymore" after a negation: not "any more recipes?".
  /(\b(not|no|never)\b|n't\b).*\bany ?more\b/,
  // The new value in place of the old: "from now on", "these days", "nowadays". Not "instead" alone: it is as often
  // advice ("use coconut oil instead of butter") as a change.
  /\bfrom now on\b/,
  /\bthese days\b/,
  /\bnowadays\b/,
  // "Now I cycle to work", "Now we have two cats": "now" opening the sentence with what the speaker does or has; inside
  // or closing it ("seven years now", "a different person now", "sending it now") it mostly tells a story. After an
  // opening "now I", a verb of wanting, feeling or ability tells one too ("Now I want to help others").
  /^now (i|we) (?!(want|need|know|think|feel|hope|wish|realize|realise|understand|see|get|can|could|will|would|should|must|am|'m|'ll|just)\b)/,
  // A correction: "actually it's the 21st", "correction:", "I meant".
  /\bactually,? (it'?s|it is|it was|i|we|my|our|the)\b/,
  /\bcorrection\b/,
  /\bi meant\b/,
  // Someone or something new in the role: "retired", "renamed", "rename", "took over".
  /\b(retired|renamed|rename|took over)\b/,
]

/** Whether `text` says that a value the speaker gave before has changed or was wrong. */
export function readsAsRevision(text: string): boolean {
  const lower = lowerCase(text)
  return REVISION_CUES.some((cue) => cue.test(lower))
}

const SECOND_PERSON = /\b(you|your|you're|you've|yours)\b/
const FIRST_PERSON = /\b(i|i'm|i've|i'd|me|my|we|we're|we've|us|our)\b/

/**
 * Whether `text` speaks of the listener and not of the speaker ("even though you can't volunteer there anymore"):
 * a change it tells is the listener's, so it revises nothing the speaker said. The other speaker's line the speaker
 * confirms is told in the second person too ("your new dentist is Dr Okafor"), which `later-updates.ts` lets through.
 */
export function speaksOfListener(text: string): boolean {
  const lower = lowerCase(text)
  return SECOND_PERSON.test(lower) && !FIRST_PERSON.test(lower)
}

/** The words of those wordings, to take out of a sentence (not whole matches: "not … anymore" spans the subject). */
const CUE_WORDS =
  /\b(these days|nowadays|from now on|now|any ?more|no longer|again|actually|correction|switch|switched|switching|swapped|swapping|replaced|traded|changed|moved|relocated|sold|gave up|given up|cancell?ed|ditched|dropped|quit|left|retired|renamed|rename|took over)\b/g

/**
 * `text` lower-cased without its words of a change: what is left names the subject and the values ("these days"
 * says nothing about what changed, and shares "day" with any sentence about days).
 */
export function withoutRevisionCues(text: string): string {
  return lowerCase(text).replace(CUE_WORDS, ' ')
}

function lowerCase(text: string): string {
  return text.toLowerCase().replace(/[’‘]/g, "'")
}

/** A past time named: "yesterday", "last week", "two days ago", "last Friday". */
const PAST_TIME =
  /\b(yesterday|ago|last (night|week|weekend|month|year|time|summer|winter|spring|autumn|fall|monday|tuesday|wednesday|thursday|friday|saturday|sunday|fri|sat|sun))\b/

/**
 * Whether `text` tells an event at a past time ("I won my first tournament last week", "Lost my job yesterday"):
 * what happened then stays so, and a later line on the subject is more of the story, not a revision of it.
 */
export function tellsPastEvent(text: string): boolean {
  return PAST_TIME.test(lowerCase(text))
}

/** Where the speaker lives, said in the first person: "we live in Leeds", "I rent a flat in Hackney", "our house". */
const OWN_HOME =
  /\b(i|we) (live|rent|own)\b|\b(i'm|we're|i am|we are) (living|renting|based)\b|\b(my|our) (flat|house|home|apartment)\b/

/** A move of the speaker's own: "we moved to Bristol", "I've relocated", "moved house again". */
const OWN_MOVE = /\b(i|we)('ve| have)? (finally )?(moved|relocated)\b|\bmoved (house|again)\b/

/** Whether `text` reports a move of the speaker's own ("we moved to Bristol", "moved house again"). */
export function tellsOwnMove(text: string): boolean {
  return OWN_MOVE.test(lowerCase(text))
}

/**
 * Whether `later` reports the speaker's move and `earlier` says where the speaker lives, or an earlier move: a move names the new place,
 * seldom the old one or the word "live", yet it revises where they live. Someone else's home ("my sister lives in
 * Dublin") is not the speaker's.
 */
export function movesFromHome(earlier: string, later: string): boolean {
  const before = lowerCase(earlier)
  return (OWN_HOME.test(before) || OWN_MOVE.test(before)) && tellsOwnMove(later)
}

/** Openings by which a reply agrees with what the other speaker just said: "Yes, exactly", "That's right", "Correct". */
const CONFIRMATION = /^\s*(yes|yeah|yep|yup|exactly|correct|right|indeed|that'?s (right|correct|it)|true)\b/

/**
 * Whether `text`, the opening of a reply, confirms the turn before it: an assistant's "So you've switched to Virgin
 * now?" answered "That's right, since Tuesday" is the user's revision as much as if the user had said it.
 */
export function confirmsPrevious(text: string): boolean {
  return CONFIRMATION.test(lowerCase(text))
}
