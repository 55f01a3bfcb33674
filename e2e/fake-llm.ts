// A stand-in for an OpenAI-compatible chat completions endpoint on localhost: it records every request body and
// answers each with a short numbered reply, whole or streamed as server-sent events (`stream: true`), with the CORS
// headers a page on another port needs. The latest user message can ask for a failure, so that tests can see what
// a client does with one: `[fail]` gets an HTTP 500, `[drop]` a stream cut off after its first words, `[error]` a
// stream with an error in place of its third word, `[slow]` a stream of many words 300 ms apart (to abort), `[long: N]`
// a reply of N characters (a long document the model writes), `[recall: QUERY]` a call of the `recall` tool and
// `[forget: STATEMENT]` one of the `forget` tool when the request offers it, answered in the next request with what the
// tool returned.
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A message as the request carries it: content is text, parts, or null beside tool calls. */
export interface ChatMessage {
  role: string
  content: string | { type: string; text?: string }[] | null
  tool_calls?: { id: string; function: { name: string; arguments: string } }[]
  tool_call_id?: string
}

export interface ChatRequest {
  model: string
  messages: ChatMessage[]
  stream?: boolean
  tools?: { type: 'function'; function: { name: string } }[]
}

export interface FakeLlm {
  /** The chat completions URL, e.g. `http://localhost:41234/v1/chat/completions`. */
  url: string
  /** The API's base URL, e.g. `http://localhost:41234/v1` (what an AI SDK provider takes). */
  baseURL: string
  /** Every request received, in order. */
  requests: ChatRequest[]
  close(): Promise<void>
}

const corsHeaders = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'POST',
  // The AI SDK's providers send a `user-agent` of their own; Firefox sends it (Chromium drops it), so the preflight
  // asks for it, as it would of a real endpoint (Ollama's CORS allows it).
  'Access-Control-Allow-Headers': 'content-type, authorization, user-agent',
}

/** A message's text, whatever shape its content has. */
export function messageText(message: ChatMessage): string {
  if (typeof message.content === 'string') return message.content
  return (message.content ?? []).map((part) => part.text ?? '').join('')
}

/** What one request is answered with. */
type Answer =
  | { kind: 'text'; text: string; mode: 'whole' | 'drop' | 'error' | 'slow' }
  | { kind: 'tool-call'; name: 'recall' | 'forget'; input: Record<string, string> }
  | { kind: 'fail' }

function answerFor(body: ChatRequest, n: number): Answer {
  const last = body.messages.at(-1)
  if (last?.role === 'tool') return { kind: 'text', text: `From memory: ${messageText(last)}`, mode: 'whole' }
  const request = [...body.messages].reverse().find((message) => message.role === 'user')
  const text = request ? messageText(request) : ''
  if (text.includes('[fail]')) return { kind: 'fail' }
  const call = /\[(recall|forget): ([^\]]+)\]/.exec(text)
  if (call && body.tools?.some((tool) => tool.function.name === call[1])) {
    const name = call[1] as 'recall' | 'forget'
    return { kind: 'tool-call', name, input: name === 'recall' ? { query: call[2] } : { statement: call[2] } }
  }
  if (text.includes('[drop]')) return { kind: 'text', text: `Noted (${n}), and more to come.`, mode: 'drop' }
  if (text.includes('[error]')) return { kind: 'text', text: `Noted (${n}), and more to come.`, mode: 'error' }
  const long = /\[long: (\d+)\]/.exec(text)
  if (long) return { kind: 'text', text: longReply(Number(long[1]), n), mode: 'whole' }
  if (text.includes('[slow]'))
    return { kind: 'text', text: `Noted (${n}), ${'word '.repeat(30).trim()}.`, mode: 'slow' }
  return { kind: 'text', text: `Noted (${n}).`, mode: 'whole' }
}

/** A reply of `chars` characters: numbered sentences, so that each part of it is distinct. */
function longReply(chars: number, n: number): string {
  let text = `Long reply ${n}.`
  for (let i = 1; text.length < chars; i++) text += ` Sentence ${i} of the long reply ${n} goes on here.`
  return text.slice(0, chars)
}

export async function startFakeLlm(): Promise<FakeLlm> {
  const requests: ChatRequest[] = []
  const server = createServer(async (request, response) => {
    if (request.method === 'OPTIONS') {
      response.writeHead(204, corsHeaders)
      response.end()
      return
    }
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest
    requests.push(body)
    const id = `chatcmpl-${requests.length}`
    const answer = answerFor(body, requests.length)
    if (answer.kind === 'fail') {
      response.writeHead(500, { 'Content-Type': 'application/json', ...corsHeaders })
      response.end(JSON.stringify({ error: { message: 'The fake LLM was asked to fail.', type: 'server_error' } }))
      return
    }
    const toolCall =
      answer.kind === 'tool-call'
        ? {
            id: `call-${requests.length}`,
            type: 'function',
            function: { name: answer.name, arguments: JSON.stringify(answer.input) },
          }
        : undefined
    if (!body.stream) {
      response.writeHead(200, { 'Content-Type': 'application/json', ...corsHeaders })
      const message = toolCall
        ? { role: 'assistant', content: null, tool_calls: [toolCall] }
        : { role: 'assistant', content: answer.kind === 'text' ? answer.text : '' }
      response.end(
        JSON.stringify({
          id,
          object: 'chat.completion',
          model: body.model,
          choices: [{ index: 0, message, finish_reason: toolCall ? 'tool_calls' : 'stop' }],
        }),
      )
      return
    }
    await streamAnswer(response, id, body.model, answer, toolCall)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://localhost:${port}/v1/chat/completions`,
    baseURL: `http://localhost:${port}/v1`,
    requests,
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
  }
}

/** The answer as chat completion chunks, word by word, then `[DONE]`; a `drop` answer is cut off after two words. */
async function streamAnswer(
  response: ServerResponse,
  id: string,
  model: string,
  answer: Exclude<Answer, { kind: 'fail' }>,
  toolCall: object | undefined,
): Promise<void> {
  response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', ...corsHeaders })
  const send = (delta: object, finishReason: string | null = null) =>
    response.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', model, choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`,
    )
  send({ role: 'assistant', content: '' })
  if (answer.kind === 'tool-call') {
    send({ tool_calls: [{ index: 0, ...toolCall }] })
    send({}, 'tool_calls')
  } else {
    const words = answer.text.length > 2000 ? answer.text.match(/[\s\S]{1,1000}/g)! : answer.text.split(/(?<= )/)
    for (const [i, word] of words.entries()) {
      if (answer.mode === 'drop' && i === 2) {
        response.destroy()
        return
      }
      if (answer.mode === 'error' && i === 2) {
        response.end(
          `data: ${JSON.stringify({ error: { message: 'The fake LLM failed mid-stream.' } })}\n\ndata: [DONE]\n\n`,
        )
        return
      }
      if (answer.mode === 'slow') await new Promise((resolve) => setTimeout(resolve, 300))
      if (response.destroyed) return
      send({ content: word })
    }
    send({}, 'stop')
  }
  response.write('data: [DONE]\n\n')
  response.end()
}
