import { SiftError } from './errors'
import { serializedError } from './error-transfer'
import type { EngineConnection } from './memory'
import { RELAYED_METHODS, type RelayedMethod } from './protocol'
import { callCipher, type LeaderChannel, messageContext, receivedKeyChange } from './tab-channel-access'
import type { RecordCipher } from '../worker/crypto/record-cipher'
import { decodeTabValue, encodeTabValue } from './tab-message-codec'
import type { Answer, TabMessage } from './tab-messages'

/** What the relay needs of the leading tab's election. */
export interface RelayHost {
  /** The election's group: the database name and schema version, part of every sealed message's context. */
  group: string
  /** The memory's database name, for error messages. */
  name: string
  /** The leader's side of the channel, once it leads. */
  leaderChannel(): Promise<LeaderChannel> | undefined
  /** The leader's engine, opened again if it ended. */
  lead(): Promise<EngineConnection>
  post(message: TabMessage): void
}

/**
 * The leader's side of the calls other tabs' memories forward: each opened with the channel key, run on the leader's
 * engine once, and answered sealed. Calls are opened and started one after another, in the order they arrived: WebCrypto
 * may settle a later, shorter open first (Firefox does), and calls are run by their numbers, once each (`firstRelay`),
 * so a call overtaken by a later one would be taken for one relayed already and never answered.
 */
export class CallRelay {
  /** The highest call number relayed from each follower session: a sealed call posted again is not run again. */
  private readonly relayed = new Map<string, number>()
  private callsOpened: Promise<void> = Promise.resolve()

  constructor(private readonly host: RelayHost) {}

  /**
   * Opens a follower's sealed call, runs it on the engine and answers. A call this tab cannot open (sealed for another
   * leader, or by a tab without the memory's key), or one a plain memory's follower made after the memory was
   * encrypted, is answered with `WRONG_KEY`; one relayed already is not run again. Calls are opened and started in the
   * order they arrived (`callsOpened`), so the engine gets each follower's calls in the order it made them; their
   * answers go out as they come.
   */
  async relay(message: Extract<TabMessage, { type: 'call' }>): Promise<void> {
    const started = this.callsOpened.then(() => this.startRelayed(message))
    this.callsOpened = started.then(
      () => undefined,
      () => undefined,
    )
    const call = await started
    if (!call) return
    const { id, exchangeKey } = message
    const answer = await call.answer
    // An encrypted memory's answers are sealed; a plain memory's follower gets them in clear.
    if (exchangeKey) this.host.post({ type: 'result', id, answer })
    else {
      const context = messageContext(this.host.group, 'result', id)
      this.host.post({ type: 'result', id, sealed: await call.cipher.seal(encodeTabValue(answer), context) })
    }
  }

  /** `relay`'s part in order: the call opened, checked and started on the engine; undefined when it is not answered. */
  private async startRelayed({
    id,
    sealed,
    exchangeKey,
  }: Extract<TabMessage, { type: 'call' }>): Promise<{ cipher: RecordCipher; answer: Promise<Answer> } | undefined> {
    const channel = await this.host.leaderChannel()?.catch(() => undefined)
    if (!channel) return undefined
    const cipher = await callCipher(channel, exchangeKey)
    const opened = await cipher?.open(sealed, messageContext(this.host.group, 'call', id)).catch(() => undefined)
    if (!cipher || !opened) {
      const refusal = new SiftError(
        'WRONG_KEY',
        `The tab running the memory "${this.host.name}" cannot open this call: the memory is encrypted (perhaps since another tab changed its key), and this tab did not join it with its key. Create the memory again with its passphrase or key.`,
      )
      this.host.post({ type: 'result', id, answer: { error: serializedError(refusal) } })
      return undefined
    }
    if (!this.firstRelay(id)) return undefined
    try {
      const { method, args } = decodeTabValue(opened) as { method: RelayedMethod; args: unknown[] }
      if (!RELAYED_METHODS.includes(method)) throw new Error(`${String(method)} is not a method another tab may call`)
      const connection = await this.host.lead()
      const given = method === 'changeKey' ? [await receivedKeyChange(args[0])] : args
      // Started here, before the next call is opened; awaited by `relay`.
      const run = connection.remote[method] as (...args: unknown[]) => Promise<unknown>
      const result = new Promise<unknown>((resolve) => resolve(run(...given)))
      return { cipher, answer: result.then(answered, failed) }
    } catch (error) {
      return { cipher, answer: Promise.resolve(failed(error)) }
    }
  }

  /** Whether call `id` (`<session>:<number>`, numbered in order by its follower) is relayed for the first time. */
  private firstRelay(id: string): boolean {
    const at = id.lastIndexOf(':')
    const [session, number] = [id.slice(0, at), Number(id.slice(at + 1))]
    if (!(number > (this.relayed.get(session) ?? 0))) return false
    this.relayed.set(session, number)
    return true
  }
}

function answered(value: unknown): Answer {
  return { value }
}

function failed(error: unknown): Answer {
  return { error: serializedError(error) }
}
