// The forget set's file format (`sift-forget-set`: forget-set.json, forget-wordings.json, forget-wordings-fresh.json,
// forget-wordings-fresh2.json):
// conversations with their stored messages, the facts asked about, the requests to forget and the controls.
import type { SetControl } from './controls'

export interface SetMessage {
  id: string
  role: string
  content: string
  timestamp: string
}
export interface SetFact {
  id: string
  question: string
  answer: string
  evidence: string[]
}
export interface SetRequest {
  id: string
  kind: 'forget' | 'retraction'
  message: string
  statement: { messageId: string; sentence: string }
  value: string
  probe: string
  echoes: string[]
  /** The set's half (forget-wordings.json): tuned on, or only measured. */
  split?: Split
}
export interface SetConversation {
  id: string
  /** The language its messages and requests are written in (forget-wordings.json); English when absent. */
  language?: string
  messages: SetMessage[]
  facts: SetFact[]
  requests: SetRequest[]
  /** Messages that ask for nothing to be forgotten (forget-wordings-fresh.json). */
  controls?: SetControl[]
}

export type Split = 'tune' | 'held-out'
