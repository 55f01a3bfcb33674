// Small DOM helpers shared by the demo's views. Stored text only ever goes in as text (textContent, text nodes):
// a message may hold markup, and the page must show it, not run it.

/** The element with this id in index.html; throws (a broken page, not a user error) when it is missing. */
export function element<T extends Element = HTMLElement>(id: string): T {
  const found: Element | null = document.getElementById(id)
  if (!found) throw new Error(`demo: #${id} is missing from index.html`)
  return found as T
}

/** A new element with an optional class and text. */
export function make<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const created = document.createElement(tag)
  if (className) created.className = className
  if (text !== undefined) created.textContent = text
  return created
}

/** A `<dl>`'s rows from term/value pairs. */
export function definitionRows(rows: readonly (readonly [string, string])[]): HTMLElement[] {
  return rows.flatMap(([term, value]) => [make('dt', undefined, term), make('dd', undefined, value)])
}

const numberFormat = new Intl.NumberFormat('en')

/** 12,345 */
export function formatCount(value: number): string {
  return numberFormat.format(value)
}

/** `part` as a percentage of `whole` ('—' when the whole is empty), with one decimal below 10%. */
export function formatShare(part: number, whole: number): string {
  if (whole <= 0) return '—'
  const percent = (part / whole) * 100
  return `${percent < 10 ? percent.toFixed(1) : Math.round(percent)} %`
}

/** "8 May 2026" in UTC, as the context text dates its lines. */
export function formatDay(timestamp: number): string {
  return new Date(timestamp).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  })
}

/** An error as one line for the page: its Sift code (when it has one) and its message. */
export function describeError(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? `${String(error.code)}: ` : ''
  return `${code}${error instanceof Error ? error.message : String(error)}`
}

/** The Sift error code of a rejection, if it has one. */
export function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined
}
