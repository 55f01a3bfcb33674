/** Standard base64 of `bytes`, built in chunks: one `String.fromCharCode` call per byte would be slow on a large export. */
export function toBase64(bytes: Uint8Array): string {
  let binary = ''
  for (let i = 0; i < bytes.length; i += BASE64_CHUNK)
    binary += String.fromCharCode(...bytes.subarray(i, i + BASE64_CHUNK))
  return btoa(binary)
}

/** Below the engines' limit on a call's argument count. */
const BASE64_CHUNK = 0x8000

/** The bytes of standard base64 `text` (checked with `isBase64`). */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

/** Whether `text` is standard base64 (padded), as `toBase64` writes it. */
export function isBase64(text: string): boolean {
  return text.length % 4 === 0 && BASE64.test(text)
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/
