// Steps on a page of any engine through the session interface (e2e/browsers/session.ts), as the examples' runs
// (chat-example-run.ts, react-example-run.ts) take them: a field typed into, text waited for, the text of a list.
import type { PageSession } from './browsers/session'

/**
 * Sets a text field's value as typing does (an `input` event, then `change`), replacing what it held. Not the
 * session's `fill`: playwright's in Firefox appends to an `<input type=number>` rather than replacing its value, and
 * the WebDriver session's sets `field.value`, which React intercepts (it keeps a controlled field's value in a setter on
 * the element itself), so React sees no change; the prototype's setter changes the value under it, as a key does.
 */
export async function setField(page: PageSession, selector: string, value: string): Promise<void> {
  const done = await page.evaluate(
    ({ selector, value }) => {
      const field = document.querySelector(selector) as HTMLInputElement | HTMLTextAreaElement | null
      if (!field) return false
      const prototype =
        field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype
      Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(field, value)
      field.dispatchEvent(new Event('input', { bubbles: true }))
      field.dispatchEvent(new Event('change', { bubbles: true }))
      return true
    },
    { selector, value },
  )
  if (!done) throw new Error(`no element matches ${selector}`)
}

/**
 * Waits until the text of the element `selector` finds matches `pattern` (a RegExp source); on timeout, the error
 * says what the element said then, and the page's errors so far.
 */
export async function waitForText(page: PageSession, selector: string, pattern: string, timeout: number) {
  try {
    await page.waitForFunction(
      ({ selector, pattern }) => new RegExp(pattern).test(document.querySelector(selector)?.textContent ?? ''),
      { selector, pattern },
      { timeout },
    )
  } catch (error) {
    const text = await page.textContent(selector).catch(() => null)
    const errors = await page.errors().catch(() => [])
    throw new Error(
      `${selector} did not match /${pattern}/ within ${timeout} ms: it says ${JSON.stringify(text)}; page errors: ${JSON.stringify(errors)}`,
      { cause: error },
    )
  }
}

/** The text of every element `selector` finds, in document order. */
export function texts(page: PageSession, selector: string): Promise<string[]> {
  return page.evaluate(
    (selector) => [...document.querySelectorAll(selector)].map((element) => element.textContent ?? ''),
    selector,
  )
}
