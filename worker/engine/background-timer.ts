/** `setTimeout` for background work: in Node, such a timer must not keep the process alive. */
export function backgroundTimer(callback: () => void, ms: number): ReturnType<typeof setTimeout> {
  const timer = setTimeout(callback, ms)
  ;(timer as { unref?: () => void }).unref?.()
  return timer
}
