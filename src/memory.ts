import type { Remote } from 'comlink'
import type { WorkerApi } from '../worker/rpc/engine-api'
import { SiftError } from './errors'
import type { BuildContextOptions, Context, ForgetSelector, Memory, MemoryStats, MessageInput } from './types'

/** The main-thread side of a memory whose engine runs in a Web Worker: each call is forwarded; `close` then ends the worker with `stop`. */
export class WorkerMemory implements Memory {
  private closing: Promise<void> | undefined

  constructor(
    private readonly remote: Remote<WorkerApi>,
    private readonly stop: () => void,
  ) {}

  add(message: MessageInput | MessageInput[]): Promise<string[]> {
    return this.call(() => this.remote.add(message))
  }

  indexed(): Promise<void> {
    return this.call(() => this.remote.indexed())
  }

  buildContext(request: string, options?: BuildContextOptions): Promise<Context> {
    return this.call(() => this.remote.buildContext(request, options))
  }

  forget(selector: ForgetSelector): Promise<number> {
    return this.call(() => this.remote.forget(selector))
  }

  stats(): Promise<MemoryStats> {
    return this.call(() => this.remote.stats())
  }

  close(): Promise<void> {
    this.closing ??= this.remote.close().finally(this.stop)
    return this.closing
  }

  /** A terminated worker never answers, so calls after close must be refused here rather than forwarded. */
  private async call<T>(forward: () => Promise<T>): Promise<T> {
    if (this.closing) throw new SiftError('CLOSED', 'This memory is closed; create a new one with createMemory().')
    return forward()
  }
}
