// Locates a Chromium/Chrome binary for the browser tests and the browser benchmark.
import { accessSync, constants } from 'node:fs'

const knownPaths = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/opt/google/chrome/chrome',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
]

/** Whether `path` is a file this process may run. */
export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** `CHROME_PATH` if set (it must exist), else the first known install location; `undefined` when none. */
export function findChromium(): string | undefined {
  const fromEnv = process.env.CHROME_PATH
  if (fromEnv) return isExecutable(fromEnv) ? fromEnv : undefined
  return knownPaths.find(isExecutable)
}

/** Flags every launch uses: no sandbox (containers, root), and no background traffic to Google services. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** Added for the WebGPU path: exposes Chromium's SwiftShader (CPU) WebGPU adapter on machines without a GPU. */
export const webgpuArgs = ['--enable-unsafe-webgpu']
