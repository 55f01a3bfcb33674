// A stand-in for an OpenAI-compatible chat completions endpoint on localhost: it records every request body and
// answers each with a short numbered reply, with the CORS headers a page on another port needs.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ChatMessage {
  role: string
  content: string
}

export interface ChatRequest {
  model: string
  messages: ChatMessage[]
}

export interface FakeLlm {
  /** The chat completions URL, e.g. `http://localhost:41234/v1/chat/completions`. */
  url: string
  /** Every request received, in order. */
  requests: ChatRequest[]
  close(): Promise<void>
}

const corsHeaders = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'POST',
  'Access-Control-Allow-Headers': 'content-type, authorization',
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
    response.writeHead(200, { 'Content-Type': 'application/json', ...corsHeaders })
    response.end(
      JSON.stringify({
        id: `chatcmpl-${requests.length}`,
        object: 'chat.completion',
        model: body.model,
        choices: [
          { index: 0, message: { role: 'assistant', content: `Noted (${requests.length}).` }, finish_reason: 'stop' },
        ],
      }),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://localhost:${port}/v1/chat/completions`,
    requests,
    close: () => new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  }
}
