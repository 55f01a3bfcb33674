import { chatPrompt, toOpenAIMessages, type ChatTurn, type Memory } from 'sift-memory'

/** An OpenAI-compatible chat completions endpoint, e.g. `https://api.openai.com/v1/chat/completions`. */
export interface ChatEndpoint {
  url: string
  model: string
  apiKey?: string
}

export type Turn = ChatTurn

const SYSTEM_PROMPT =
  'You are a helpful assistant. Excerpts from earlier in this conversation that bear on the latest message are ' +
  'given before the recent turns; use them when they help, and say so when they do not answer the question.'

/**
 * One exchange: the context for `request` built from the whole stored history, the chat request sent with that
 * context and the `recent` turns (not the whole history), then the request and its reply stored together, so a
 * request that got no answer is not remembered.
 */
export async function chatTurn(
  memory: Memory,
  endpoint: ChatEndpoint,
  recent: Turn[],
  request: string,
  budget: number,
): Promise<string> {
  // Built before the request is stored, so that it does not find the request itself; the recent turns, sent
  // verbatim, are left out of it (`excludeRecent`), so that no excerpt repeats them.
  const context = await memory.buildContext(request, { budget, excludeRecent: recent.length })
  // Prompt caching: a provider reuses the longest prefix an earlier request shared. chatPrompt puts the system
  // prompt, the same in every request, first; the pins and summaries, which change only when the app changes them, in
  // a system message of their own after it; the excerpts, which change every time, in the next; the recent turns and
  // the request last.
  const messages = toOpenAIMessages(chatPrompt({ system: SYSTEM_PROMPT, context, recent, request }))
  const response = await fetch(endpoint.url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(endpoint.apiKey ? { Authorization: `Bearer ${endpoint.apiKey}` } : {}),
    },
    body: JSON.stringify({ model: endpoint.model, messages }),
  })
  if (!response.ok) throw new Error(`${endpoint.url} answered ${response.status}: ${await response.text()}`)
  const reply: string = (await response.json()).choices[0].message.content
  await memory.add([
    { role: 'user', content: request },
    { role: 'assistant', content: reply },
  ])
  return reply
}
