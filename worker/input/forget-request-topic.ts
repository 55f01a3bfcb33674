/** Greetings and fillers a request may open with: "Hey, please …", "OK so …". */
const OPENING = /^(?:(?:hey|hi|ok|okay|so|and|also|now|then|please|pls|kindly)\b[\s,.!:;-]*)+/i
/** Asking someone to do it: "can you", "I'd like you to", each optionally followed by "please". */
const ASKING =
  /^(?:(?:can|could|would|will)\s+you\s+|i(?:\s+(?:want|need|would\s+like)|['’]d\s+like)\s+you\s+to\s+)?(?:please\s+)?/i
/** The request itself. */
const FORGET =
  /^(?:forget|delete|remove|erase|unlearn|stop\s+remembering|(?:don['’]?t|do\s+not|no\s+longer)\s+remember)\b\s*/i
/** What is to be forgotten, before the topic: "everything I told you about", "the fact that", "what I said about". */
const POINTER =
  /^(?:(?:everything|anything|all|what|the\s+(?:fact|part|bit|thing|message|messages|stuff))\s+)?(?:(?:that|where|when)\s+)?(?:i\s+(?:said|told\s+you|mentioned|wrote|shared)(?:\s+|$))?(?:(?:about|that|where|regarding|on|of)\s+)?/i
/** Trailing politeness and punctuation: "…, please.", "…!" */
const CLOSING = /(?:[\s,]+(?:please|pls|thanks|thank\s+you))?[\s.!?,;:]*$/i

/**
 * What a "forget that I …" request is about: the request's phrasing ("Please forget that", "Can you delete what I said
 * about") stripped, so that it ranks stored messages by their topic rather than by the words of asking ("forget"
 * would match every message that talks about forgetting). A text that does not ask to forget anything, or that asks
 * without naming a topic ("forget it"), is given back as it is, trimmed: it is then the best description there is.
 */
export function forgetRequestTopic(request: string): string {
  const trimmed = request.trim()
  let rest = trimmed.replace(OPENING, '').replace(ASKING, '')
  const verb = FORGET.exec(rest)
  if (!verb) return trimmed
  rest = rest.slice(verb[0].length).replace(POINTER, '').replace(CLOSING, '')
  return rest === '' || /^(?:it|this|that|all|everything)$/i.test(rest) ? trimmed : rest
}
