/**
 * How a sentence of a user's message says "forget this" or "that is no longer so": the cues `forgetRequestTopic`
 * looks for to find the request inside a longer message, and the phrasing it strips from those sentences so that only
 * their topic is ranked. English only: a message in another language has no cue found, and is ranked whole, as before
 * the cues (left for the multilingual work). Kept small and general, phrasings any request may use rather than those
 * of one set; each is matched case-insensitively, on word boundaries. The figures of the cue set (rank 1 and within 3
 * on the forget set, tuned on its conversations 1–3 and reported on 4–6 apart) are in BENCHMARKS.md, "Finding the
 * forget request inside a message".
 */
export const FORGET_CUES = {
  /**
   * Asking to forget: a verb of deleting ("forget", "delete", "erase", "remove", "wipe", "unlearn", "scratch",
   * "drop", "strike"), or of not keeping ("don't remember / keep / store / save", "rather you didn't keep", "stop
   * remembering", "off the record", "don't want … stored / kept / on record").
   */
  asking: [
    /\b(?:forget|delete|erase|remove|wipe|unlearn|scratch|strike)\b/i,
    /\bdrop\s+(?:it|that|this|the)\b/i,
    /\b(?:don['’]?t|do\s+not|didn['’]?t|did\s+not|stop|never)\s+(?:remember(?:ing)?|keep(?:ing)?|stor(?:e|ing)|sav(?:e|ing)|record(?:ing)?)\b/i,
    /\boff\s+the\s+record\b/i,
    /\bdon['’]?t\s+want\b.*\b(?:stored|kept|saved|recorded|on\s+record|in\s+(?:here|your\s+memory))\b/i,
  ],
  /**
   * Saying a thing stated before no longer holds: "no longer", "not … anymore / any more", "isn't true", "not the
   * case", "out of date", "after all".
   */
  retracting: [
    /\bno\s+longer\b/i,
    /\bany\s?more\b/i,
    /\b(?:isn['’]?t|is\s+not|not)\s+(?:true|right|correct|the\s+case)\b/i,
    /\bout\s+of\s+date\b/i,
    /\bafter\s+all\b/i,
  ],
  /**
   * Taken out of a cue sentence before it is ranked: the words of asking and retracting, and what points back at the
   * thing said ("what I said about", "that thing about", "the bit where I talked about"), which every stored sentence
   * about saying or telling would otherwise match.
   */
  phrasing: [
    /\b(?:please|pls|kindly|also|anyway|actually|so|just)\b/gi,
    /\b(?:can|could|would|will)\s+you\b/gi,
    /\bi(?:['’]?d|\s+would)\s+(?:rather|prefer)(?:\s+(?:that\s+)?you)?\s+(?:didn['’]?t|did\s+not|not|don['’]?t|do\s+not)\s+(?:keep|remember|store|save)\b/gi,
    /\b(?:don['’]?t|do\s+not|stop|never)\s+(?:remember(?:ing)?|keep(?:ing)?|stor(?:e|ing)|sav(?:e|ing)|record(?:ing)?)\b/gi,
    /\b(?:forget|delete|erase|remove|wipe|unlearn|scratch|strike)\b(?:\s+(?:about|it|that|this))?/gi,
    /\bdrop\s+(?:it|that|this)\b/gi,
    /\b(?:i\s+)?don['’]?t\s+want\b.*$/gi,
    /\boff\s+the\s+record\b/gi,
    /\b(?:everything|anything|all|what|the\s+(?:fact|part|bit|thing|stuff))\s+(?:(?:that|where|when)\s+)?i\s+(?:said|told\s+you|mentioned|wrote|shared|talked)(?:\s+(?:about|of|regarding|on))?\b/gi,
    /\b(?:that|the)\s+(?:thing|bit|part|stuff)\s+(?:about|where|regarding)\b/gi,
    /\bi\s+(?:said|told\s+you|mentioned|wrote)\s+(?:about|that)?\b/gi,
    /\bthat\s+i\s+said\b/gi,
    /\b(?:anything|everything)\s+(?:about|regarding|of)\b/gi,
    /\b(?:so\s+)?(?:that|this|it)(?:['’]s|\s+is|\s+bit['’]s|\s+bit\s+is)\s+(?:no\s+longer|not)\s+(?:true|right|correct|the\s+case)(?:\s+(?:any\s?more|now))?\b/gi,
    /\b(?:isn['’]?t|is\s+not)\s+(?:true|right|correct|the\s+case)(?:\s+(?:any\s?more|now))?\b/gi,
    /\b(?:so\s+)?(?:that|this|it)(?:['’]s|\s+is|\s+bit['’]s)\s+out\s+of\s+date\b/gi,
    /\b(?:no\s+longer|any\s?more|after\s+all)\b/gi,
  ],
  /**
   * A cue sentence left with fewer content words than this once its phrasing is stripped names no topic of its own
   * ("Please drop that.", "I'd rather you didn't keep his name"): the sentence before it is ranked with it, since a
   * request points back at what it has just said. Content words. Tried: 1 and 2 on conversations 1–3.
   */
  minTopicTerms: 2,
} as const
