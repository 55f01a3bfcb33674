// One memory per name for every component of the page that asks for it, opened once, closed when the last one lets
// go; what changes it (here, or in another tab) is told to all of them.
import { createMemory } from '../index'
import { CHANGES_CONTENTS, RELAYED_METHODS } from '../protocol'
import type { IndexProgress, Memory, MemoryOptions } from '../types'

/** What a component that uses a shared memory hears. */
export type MemoryEvent = { type: 'progress'; progress: IndexProgress } | { type: 'changed' }

interface SharedMemory {
  opening: Promise<Memory>
  listeners: Set<(event: MemoryEvent) => void>
  users: number
  /** The close that follows the last release, unless a component takes the memory again first (React's StrictMode). */
  closing: ReturnType<typeof setTimeout> | undefined
  channel: BroadcastChannel | undefined
}

const shared = new Map<string, SharedMemory>()

/**
 * The tab channel the hooks of one memory name share: a write in any tab tells the others to read again. It carries
 * nothing but that something changed.
 */
const channelName = (name: string) => `sift-memory react ${name}`

/**
 * The memory `options.name` names, opened on first use with `options` (later users' options are ignored, as for
 * memories of one name across tabs), and a release to call when done. `listener` hears its progress events and
 * every change made through the returned memory, in this tab or another.
 */
export function acquireMemory(
  options: MemoryOptions,
  listener: (event: MemoryEvent) => void,
): { opening: Promise<Memory>; release: () => void } {
  const name = options.name ?? 'sift'
  let entry = shared.get(name)
  if (!entry) {
    const listeners = new Set<(event: MemoryEvent) => void>()
    const tell = (event: MemoryEvent) => {
      for (const heard of listeners) heard(event)
    }
    const channel = typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(channelName(name))
    if (channel) channel.onmessage = () => tell({ type: 'changed' })
    const changed = () => {
      tell({ type: 'changed' })
      channel?.postMessage('changed')
    }
    const opening = createMemory({
      ...options,
      onProgress: (progress) => {
        options.onProgress?.(progress)
        tell({ type: 'progress', progress })
      },
    }).then((memory) => announcingChanges(memory, changed))
    const created: SharedMemory = { opening, listeners, users: 0, closing: undefined, channel }
    entry = created
    shared.set(name, created)
    // A memory that did not open is not kept: the next use tries again.
    opening.catch(() => {
      if (shared.get(name) === created) shared.delete(name)
      channel?.close()
    })
  }
  const taken = entry
  clearTimeout(taken.closing)
  taken.users++
  taken.listeners.add(listener)
  return {
    opening: taken.opening,
    release: () => {
      taken.listeners.delete(listener)
      if (--taken.users > 0) return
      taken.closing = setTimeout(() => {
        if (shared.get(name) === taken) shared.delete(name)
        taken.channel?.close()
        void taken.opening.then((memory) => memory.close()).catch(() => undefined)
      })
    },
  }
}

/**
 * `memory`'s methods as functions bound to it, those that change its contents (`CHANGES_CONTENTS`) calling `changed`
 * once they resolve.
 */
export function announcingChanges(memory: Memory, changed: () => void): Memory {
  const methods = memory as unknown as Record<keyof Memory, (...args: unknown[]) => Promise<unknown>>
  const announcing = (method: keyof Memory) => {
    const call = methods[method].bind(memory)
    if (method === 'close' || !CHANGES_CONTENTS[method]) return call
    return async (...args: unknown[]) => {
      const result = await call(...args)
      changed()
      return result
    }
  }
  const every: (keyof Memory)[] = [...RELAYED_METHODS, 'close']
  return Object.fromEntries(every.map((method) => [method, announcing(method)])) as unknown as Memory
}
