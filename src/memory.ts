import type { Remote } from 'comlink'
import { SiftError, withSiftErrors } from './errors'
import type { EngineApi } from './protocol'
import type { BuildContextOptions, Context, ForgetSelector, Memory, MemoryStats, MessageInput } from './types'

/** The main-thread side of a memory whose engine runs in a Web Worker: each call is forwarded; `close` then ends the worker with `stop`. */
export class WorkerMemory implements Memory {
  private closing: Promise<void> | undefined

  constructor(
    private readonly remote: Remote<EngineApi>,
    private readonly stop: () => void,
  ) {}

  add(message: MessageInput | MessageInput[]): Promise<string[]> {
    return this.call('add', () => this.remote.add(message))
  }

  indexed(): Promise<void> {
    return this.call('indexed', () => this.remote.indexed())
  }

  buildContext(request: string, options?: BuildContextOptions): Promise<Context> {
    return this.call('buildContext', () => this.remote.buildContext(request, options))
  }

  forget(selector: ForgetSelector): Promise<number> {
    return this.call('forget', () => this.remote.forget(selector))
  }

  stats(): Promise<MemoryStats> {
    return this.call('stats', () => this.remote.stats())
  }

  close(): Promise<void> {
    this.closing ??= withSiftErrors('close', () => this.remote.close()).finally(this.stop)
    return this.closing
  }

  /**
   * A terminated worker never answers, so calls after close must be refused here rather than forwarded. What
   * fails on this side of the channel (an argument that cannot be cloned) reaches the caller as a `SiftError` too.
   */
  private async call<T>(method: keyof Memory, forward: () => Promise<T>): Promise<T> {
    if (this.closing) throw new SiftError('CLOSED', 'This memory is closed; create a new one with createMemory().')
    return withSiftErrors(method, forward)
  }
}
