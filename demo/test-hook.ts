import type { createMemory } from '../src/index'

/**
 * Demo/test hook: the demo page puts the real browser API on `window.sift`, so the browser tests (e2e/) drive
 * exactly what an app would import, through `page.evaluate`. It is part of the demo page only, not of the library.
 */
export interface SiftTestHook {
  createMemory: typeof createMemory
}

declare global {
  interface Window {
    sift: SiftTestHook
  }
}
