/**
 * A relayed call's arguments or result as bytes, so that they can be sealed before they go on the tab channel
 * (src/tab-channel-access.ts), and back. What crosses is what a structured clone would carry for Sift's API: plain
 * objects, arrays, strings, numbers (NaN and ±Infinity included), booleans, null, undefined and Dates. The value is
 * first cloned with `structuredClone`, so what could not be posted in clear (a function, a DOM node, a getter that
 * throws) fails here just as it would there; then written as JSON, a Date as `{ "$": "date", "v": ms }`, a non-finite
 * number as `{ "$": "number", "v": "NaN" }` and undefined as `{ "$": "undefined" }` (it comes back as a missing
 * property, or a hole in an array, both of which Sift's methods read as undefined), and an object key made of `$`
 * signs alone given one more, so that no value of the app's is taken for one of these.
 */

const TAG = '$'
const DOLLARS = /^\$+$/

/** `value` as UTF-8 bytes (see the file's comment); throws what `structuredClone` throws for what it cannot carry. */
export function encodeTabValue(value: unknown): Uint8Array<ArrayBuffer> {
  const json = JSON.stringify(structuredClone(value), function (this: Record<string, unknown>, key, item: unknown) {
    const raw = this[key]
    if (raw instanceof Date) return { [TAG]: 'date', v: raw.getTime() }
    if (item === undefined) return { [TAG]: 'undefined' }
    if (typeof raw === 'number' && !Number.isFinite(raw)) return { [TAG]: 'number', v: String(raw) }
    if (typeof item === 'object' && item !== null && !Array.isArray(item) && Object.keys(item).some(isDollars))
      return Object.fromEntries(Object.entries(item).map(([k, v]) => [isDollars(k) ? `${k}$` : k, v]))
    return item
  })
  return new TextEncoder().encode(json ?? 'null')
}

/** The value `encodeTabValue` wrote into `bytes`. */
export function decodeTabValue(bytes: Uint8Array<ArrayBuffer>): unknown {
  const json = new TextDecoder().decode(bytes)
  // A reviver makes the parse several times slower; most values hold no Date and no key or string starting with `$`.
  if (!json.includes(`"${TAG}`)) return JSON.parse(json)
  return JSON.parse(json, (_key, item: unknown) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return item
    const object = item as Record<string, unknown>
    if (typeof object[TAG] === 'string') {
      if (object[TAG] === 'date') return new Date(object.v as number)
      if (object[TAG] === 'number') return Number(object.v)
      // Returning undefined deletes the property: a missing key in an object, a hole in an array, as it was sent.
      if (object[TAG] === 'undefined') return undefined
    }
    if (!Object.keys(object).some(isDollars)) return object
    return Object.fromEntries(Object.entries(object).map(([k, v]) => [isDollars(k) ? k.slice(1) : k, v]))
  })
}

function isDollars(key: string): boolean {
  return DOLLARS.test(key)
}
