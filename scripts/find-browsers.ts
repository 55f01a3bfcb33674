// Locates Firefox and WebKit (Debian's firefox-esr; webkit2gtk-driver's WebKitWebDriver with the MiniBrowser of
// libwebkit2gtk-4.1, run under Xvfb) for the browser tests; Chromium is scripts/find-chromium.ts's.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { isExecutable } from './find-chromium'

/** A program on PATH, or undefined. */
function onPath(name: string): string | undefined {
  for (const folder of (process.env.PATH ?? '').split(':')) {
    if (folder && isExecutable(join(folder, name))) return join(folder, name)
  }
  return undefined
}

/** `FIREFOX_PATH` if set (it must exist), else Debian's firefox-esr or a firefox on PATH. */
export function findFirefox(): string | undefined {
  const fromEnv = process.env.FIREFOX_PATH
  if (fromEnv) return isExecutable(fromEnv) ? fromEnv : undefined
  return ['/usr/bin/firefox-esr', '/usr/bin/firefox'].find(isExecutable) ?? onPath('firefox-esr') ?? onPath('firefox')
}

export interface WebKitBinaries {
  driver: string
  miniBrowser: string
  xvfb: string
}

/** MiniBrowser as libwebkit2gtk-4.1 installs it: /usr/lib/<multiarch triplet>/webkit2gtk-4.1/MiniBrowser. */
function findMiniBrowser(): string | undefined {
  const fromEnv = process.env.MINIBROWSER_PATH
  if (fromEnv) return isExecutable(fromEnv) ? fromEnv : undefined
  let folders: string[] = []
  try {
    folders = readdirSync('/usr/lib')
  } catch {
    return undefined
  }
  return folders
    .map((folder) => join('/usr/lib', folder, 'webkit2gtk-4.1/MiniBrowser'))
    .concat('/usr/libexec/webkit2gtk-4.1/MiniBrowser')
    .find(isExecutable)
}

/**
 * WebKitWebDriver (`WEBKIT_WEBDRIVER_PATH` if set, else on PATH), MiniBrowser (`MINIBROWSER_PATH` if set) and Xvfb,
 * or what is missing (the Debian packages to install).
 */
export function findWebKit(): WebKitBinaries | { missing: string } {
  const fromEnv = process.env.WEBKIT_WEBDRIVER_PATH
  const driver = fromEnv ? (isExecutable(fromEnv) ? fromEnv : undefined) : onPath('WebKitWebDriver')
  const miniBrowser = findMiniBrowser()
  const xvfb = onPath('Xvfb')
  if (driver && miniBrowser && xvfb) return { driver, miniBrowser, xvfb }
  const missing = [
    !driver && 'WebKitWebDriver (Debian: webkit2gtk-driver)',
    !miniBrowser && 'MiniBrowser (Debian: libwebkit2gtk-4.1-0)',
    !xvfb && 'Xvfb (Debian: xvfb)',
  ].filter(Boolean)
  return { missing: `no ${missing.join(', no ')}` }
}
