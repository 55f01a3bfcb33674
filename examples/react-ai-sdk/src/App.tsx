// The chat page: useChat (the AI SDK's React hook) talks to a ToolLoopAgent in the page (DirectChatTransport, no
// server of ours), whose model is wrapped with Sift's middleware: each request carries the system prompt, the context
// built from the whole stored history, the last few turns and the new message, never the whole history; each
// finished reply is stored. useMemory (sift-memory/react) opens the memory and gives the stored chat after a reload;
// useStoredChat keeps useChat's copy in line with it when a message is forgotten. The model can recall, and forget
// when asked: its forget call waits for the user's Approve or Deny, shown with the statements it would remove.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import { useChat } from '@ai-sdk/react'
import {
  DirectChatTransport,
  type InferUITools,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  ToolLoopAgent,
  type UIMessage,
  wrapLanguageModel,
} from 'ai'
import { type FormEvent, useEffect, useMemo, useState } from 'react'
import { findStatementsToForget, type ForgetStatement, type Memory } from 'sift-memory'
import { type ForgetInput, forgetTool, recallTool, siftMemory, userMessage } from 'sift-memory/ai'
import { type MemoryState, useMemory, useStoredChat } from 'sift-memory/react'

const SYSTEM = 'You are a helpful assistant. Use the excerpts from earlier in the conversation when they help.'
/** The one conversation this page keeps. */
const CONVERSATION = 'chat'
/** Turns sent verbatim before the new message; older ones reach the model through the context. */
const RECENT_TURNS = 6
/** Stored messages shown again after a reload. */
const SHOWN_MESSAGES = 50

/** The chat's messages as useChat holds them: text, and the recall and forget tools' calls. */
type ChatMessage = UIMessage<
  unknown,
  never,
  InferUITools<{ recall: ReturnType<typeof recallTool>; forget: ReturnType<typeof forgetTool> }>
>

interface Endpoint {
  baseURL: string
  model: string
  apiKey: string
}

export function App() {
  const state = useMemory({
    name: 'react-chat',
    conversationId: CONVERSATION,
    limit: SHOWN_MESSAGES,
  })
  const { memory, messages, modelReady, progress, error } = state
  const [endpoint, setEndpoint] = useState<Endpoint>({
    baseURL: 'http://localhost:11434/v1',
    model: 'llama3.2',
    apiKey: '',
  })
  const indexing = progress && progress.pending > 0 ? `${progress.pending} sentences to index` : 'all indexed'
  const status = error
    ? `Memory failed: ${error.message}`
    : !memory || !messages
      ? 'Opening memory…'
      : `${modelReady ? 'Model ready' : 'Model loading (contexts ranked by words)'}, ${indexing}`
  const change = (field: keyof Endpoint) => (event: { target: { value: string } }) =>
    setEndpoint({ ...endpoint, [field]: event.target.value })
  return (
    <>
      <h1>React chat with Sift memory</h1>
      <p id="status" aria-live="polite">
        {status}
      </p>
      <p>
        Messages stored: <span id="stored">{messages?.length ?? 0}</span>
      </p>
      <form id="settings">
        <label>
          API base URL <input id="base-url" value={endpoint.baseURL} onChange={change('baseURL')} />
        </label>
        <label>
          Model <input id="model" value={endpoint.model} onChange={change('model')} />
        </label>
        <label>
          API key (kept in this tab only){' '}
          <input id="api-key" type="password" value={endpoint.apiKey} onChange={change('apiKey')} />
        </label>
      </form>
      {memory && messages && <Chat state={state} stored={messages} endpoint={endpoint} />}
    </>
  )
}

/** The stored message a chat message is, where it names one (the mark the middleware and the hook put on its text). */
function storedId(message: ChatMessage): string | undefined {
  for (const part of message.parts) {
    const mark = part.type === 'text' ? part.providerMetadata?.sift : undefined
    if (mark && typeof mark === 'object' && 'id' in mark && typeof mark.id === 'string') return mark.id
  }
  return undefined
}

function Chat({ state, stored, endpoint }: { state: MemoryState; stored: ChatMessage[]; endpoint: Endpoint }) {
  const memory = state.memory!
  const transport = useMemo(() => {
    const provider = createOpenAICompatible({ name: 'llm', baseURL: endpoint.baseURL, apiKey: endpoint.apiKey })
    const model = wrapLanguageModel({
      model: provider.chatModel(endpoint.model),
      middleware: siftMemory(memory, { conversationId: CONVERSATION, recentTurns: RECENT_TURNS }),
    })
    const agent = new ToolLoopAgent({
      model,
      instructions: SYSTEM,
      tools: {
        recall: recallTool(memory, { conversationId: CONVERSATION, excludeRecent: RECENT_TURNS }),
        // Waits for the user's approval (the AI SDK's tool approval) before it removes anything.
        forget: forgetTool(memory, { conversationId: CONVERSATION }),
      },
    })
    return new DirectChatTransport({ agent })
  }, [memory, endpoint])
  // The stored chat is where useChat starts; from then on useChat keeps the thread and the middleware stores it.
  const [initial] = useState(stored)
  // Once the user approved or denied a forget call, the agent goes on with it.
  const chat = useChat({
    id: CONVERSATION,
    messages: initial,
    transport,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  })
  const { messages, sendMessage, status, stop, error, addToolApprovalResponse } = chat
  // A message forgotten here or in another tab leaves the screen (the middleware leaves it out of the next request).
  useStoredChat(state, chat)
  const [input, setInput] = useState('')
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (input.trim() === '') return
    // Marked with the id it is stored under: a regenerated reply then replaces the stored one, and a forget finds it.
    void sendMessage(userMessage(input))
    setInput('')
  }
  const busy = status === 'submitted' || status === 'streaming'
  return (
    <main>
      <ol id="turns" role="log" aria-label="Conversation">
        {messages.map((message) => {
          const id = storedId(message)
          return (
            <li
              key={message.id}
              data-role={message.role}
              data-done={busy && message === messages.at(-1) ? 'no' : 'yes'}
            >
              <span className="text">
                {message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('')}
              </span>
              {message.parts.map((part) =>
                part.type === 'tool-forget' && part.state === 'approval-requested' ? (
                  <ForgetApproval
                    key={part.toolCallId}
                    memory={memory}
                    input={part.input}
                    answer={(approved) => addToolApprovalResponse({ id: part.approval.id, approved })}
                  />
                ) : null,
              )}
              {id && !busy && (
                <button type="button" className="forget" onClick={() => void memory.forget({ ids: [id] })}>
                  Forget
                </button>
              )}
            </li>
          )
        })}
      </ol>
      {error && (
        <p id="error" className="error">
          {error.message}
        </p>
      )}
      <form id="chat-form" onSubmit={submit}>
        <label htmlFor="message">Message</label>
        <textarea id="message" rows={3} value={input} onChange={(event) => setInput(event.target.value)} />
        <button id="send" type="submit" disabled={busy}>
          Send
        </button>
        <button id="stop" type="button" disabled={!busy} onClick={() => stop()}>
          Stop
        </button>
      </form>
    </main>
  )
}

/** A pending forget call: the statements it would remove (as it resolves them once approved), and Approve / Deny. */
function ForgetApproval({
  memory,
  input,
  answer,
}: {
  memory: Memory
  input: ForgetInput
  answer: (approved: boolean) => void
}) {
  const [statements, setStatements] = useState<ForgetStatement[]>()
  const { statement } = input
  useEffect(() => {
    findStatementsToForget(memory, { statement }, { conversationId: CONVERSATION }).then(setStatements, () =>
      setStatements([]),
    )
  }, [memory, statement])
  return (
    <div className="forget-approval">
      <p>Forget these?</p>
      <ul>
        {statements?.map((s) => (
          // A repeat (a reply that said the statement back) is listed under its statement, and goes with it.
          <li key={`${s.messageId}:${s.start}`} className={s.repeatOf ? 'repeat' : undefined}>
            {s.repeatOf ? 'said back: ' : ''}
            {s.date}: {s.text}
          </li>
        ))}
      </ul>
      <button type="button" className="approve" disabled={!statements} onClick={() => answer(true)}>
        Approve
      </button>
      <button type="button" className="deny" onClick={() => answer(false)}>
        Deny
      </button>
    </div>
  )
}
