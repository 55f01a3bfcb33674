// The in-page error hook, for drivers that give no console from the first byte (WebKit over classic WebDriver): a
// copy of the built site whose HTML pages load the hook as their first script. The copy links every file of the built
// site but the HTML ones, so it costs nothing to make; the hook is a same-origin file, as the strict
// Content-Security-Policy the demo runs under allows no inline script.
import { mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Where the hook keeps what it saw, on the page's `window`. */
export const hookGlobal = '__siftE2eErrors'
export const hookPath = '/e2e-page-hook.js'

/**
 * Records console.error calls, uncaught errors (script and resource load errors too), unhandled rejections and CSP
 * violations in `window.__siftE2eErrors`. A classic script that runs before the page's module scripts.
 */
const hookSource = `(() => {
  const errors = (window.${hookGlobal} = [])
  const text = (value) => {
    if (value instanceof Error) return value.name + ': ' + value.message
    if (typeof value === 'string') return value
    try { return JSON.stringify(value) } catch { return String(value) }
  }
  const original = console.error
  console.error = function (...args) {
    errors.push(args.map(text).join(' '))
    return original.apply(this, args)
  }
  addEventListener('error', (event) => {
    const target = event.target && event.target !== window ? event.target : undefined
    errors.push('uncaught: ' + (event.error ? text(event.error) : event.message || (target && (target.src || target.href)) || 'error event'))
  }, true)
  addEventListener('unhandledrejection', (event) => errors.push('unhandled rejection: ' + text(event.reason)))
  addEventListener('securitypolicyviolation', (event) => errors.push('CSP violation: ' + event.violatedDirective + ' ' + event.blockedURI))
})()
`

/**
 * A page script that raises one of each error the hook records, for the test that checks the record. It is served as
 * a file because a driver's own script may run in a realm of its own (Firefox's Marionette runs it in a sandbox, whose
 * uncaught errors are not the page's), while the errors the record exists for are raised by the page's code.
 */
export const provokePath = '/e2e-provoke-errors.js'
const provokeSource = `console.error('a console error')
setTimeout(() => {
  throw new Error('an uncaught error')
})
void Promise.reject(new Error('a rejection'))
`

/** A temporary copy of `root` with the hook in every top-level HTML page; `remove()` deletes it. */
export async function hookedSite(root: string): Promise<{ root: string; remove(): Promise<void> }> {
  const copy = await mkdtemp(join(tmpdir(), 'sift-e2e-site-'))
  for (const entry of await readdir(root, { withFileTypes: true })) {
    const from = join(root, entry.name)
    if (entry.isFile() && entry.name.endsWith('.html')) {
      const html = await readFile(from, 'utf8')
      const hooked = html.replace(/<head[^>]*>/i, (head) => `${head}\n    <script src="${hookPath}"></script>`)
      if (hooked === html) throw new Error(`${from} has no <head> to put the e2e page hook in`)
      await writeFile(join(copy, entry.name), hooked)
    } else {
      await symlink(from, join(copy, entry.name))
    }
  }
  await writeFile(join(copy, hookPath.slice(1)), hookSource)
  await writeFile(join(copy, provokePath.slice(1)), provokeSource)
  return { root: copy, remove: () => rm(copy, { recursive: true, force: true }) }
}
