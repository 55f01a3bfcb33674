// Opt-in sync between the user's devices (docs/sync.md): with a server database URL in the settings, the page opens a
// memory of its own, sealed with a passphrase the user types on each device, and keeps it in step with the user's other
// browsers through that server. Without a URL the page opens its plain memory and nothing leaves the device.
import { createMemory, isSiftError, type Memory, type MemoryOptions } from 'sift-memory'

/** The URL is kept across reloads; the passphrase never is (anything in localStorage is readable by every script this origin runs). */
const URL_KEY = 'sift-chat-sync-url'
/**
 * The synced memory's name: not the plain one's, whose database is stored in clear, and a memory is either sealed
 * with a passphrase or not. So turning sync on starts a separate history rather than uploading the plain one.
 */
const SYNCED_NAME = 'sift-chat-synced'
/** How often the page counts the stored messages, to show what another device sent (sync itself runs in the background). */
const COUNT_CHECK_MS = 2000
/** How often it asks whether everything reached the server, so that a server gone away shows in the status line. */
const SYNC_CHECK_MS = 30_000

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T
const urlField = byId<HTMLInputElement>('sync-url')
const passphraseForm = byId<HTMLFormElement>('passphrase-form')
const passphraseField = byId<HTMLInputElement>('passphrase')
const passphraseNote = byId<HTMLParagraphElement>('passphrase-note')

const isServerUrl = (text: string) => /^https?:\/\/[^/]+\/[^/]/.test(text) && URL.canParse(text)

/**
 * The server database URL saved in this browser, shown in the settings; `''` when sync is off. Saved as it is typed,
 * so it should not carry credentials (`https://user:password@…`): a cookie the server sets keeps them out of localStorage.
 */
export function savedSyncUrl(): string {
  const saved = localStorage.getItem(URL_KEY) ?? ''
  urlField.value = saved
  // A change applies at the next load: the memory open now stays the one the page opened. Only a URL with a
  // database path is kept, so that a half-typed one does not stop the next load at a passphrase it cannot use.
  urlField.addEventListener('change', () => {
    const next = urlField.value.trim()
    if (isServerUrl(next)) localStorage.setItem(URL_KEY, next)
    else if (!next) localStorage.removeItem(URL_KEY)
    urlField.setCustomValidity(next && !isServerUrl(next) ? 'A database URL: http(s)://host/database' : '')
    urlField.reportValidity()
  })
  return isServerUrl(saved) ? saved : ''
}

/** Shows the passphrase form with `note`, and resolves with what the user typed once they submit it. */
function askPassphrase(note: string): Promise<string> {
  passphraseNote.textContent = note
  passphraseForm.hidden = false
  passphraseField.focus()
  return new Promise((resolve) => {
    passphraseForm.addEventListener(
      'submit',
      (event) => {
        event.preventDefault()
        const passphrase = passphraseField.value
        // Out of the page as soon as it was read: the memory holds the key, the field need not.
        passphraseField.value = ''
        passphraseForm.hidden = true
        resolve(passphrase)
      },
      { once: true },
    )
  })
}

/** Sync's state for the status line after a `synced()`: up to date, or why not; `refused` for another passphrase. */
async function syncState(memory: Memory, server: string): Promise<{ text: string; refused: boolean }> {
  try {
    await memory.synced()
    return { text: `Synced with ${server} at ${new Date().toLocaleTimeString()}`, refused: false }
  } catch (error) {
    const code = isSiftError(error) ? error.code : undefined
    if (code === 'WRONG_KEY')
      return {
        text: `Sync refused (WRONG_KEY): the memory on ${server} was sealed with another passphrase, so nothing was sent`,
        refused: true,
      }
    // Background sync retries by itself: the chat goes on here and reaches the server once it is back.
    if (code === 'STORAGE_FAILED')
      return { text: `Sync waiting: ${server} is out of reach; this device syncs when it is back`, refused: false }
    return { text: `Sync failed: ${(error as Error).message}`, refused: false }
  }
}

/** Deletes the IndexedDB database of a memory this device just created (the memory's `name` is the database's). */
function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name)
    request.onsuccess = () => resolve()
    request.onerror = () => reject(request.error)
  })
}

/**
 * The synced memory of `url`, opened with the passphrase the user types and checked with the server before the chat
 * starts. Asked again while it does not open this device's copy (`WRONG_KEY` from `createMemory`: the copy here was
 * sealed with another one), or while the server's memory refuses it and this device holds nothing yet: a mistyped
 * passphrase on a new device then costs nothing, its empty copy deleted so the next one can seal it.
 */
export async function openSyncedMemory(
  url: string,
  options: MemoryOptions,
  say: (text: string) => void,
): Promise<{ memory: Memory; state: string; refused: boolean }> {
  const server = new URL(url).host
  let note = `Type the passphrase this memory uses on your other devices (a new one on the first device). It syncs with ${server}.`
  for (;;) {
    const passphrase = await askPassphrase(note)
    let memory: Memory
    try {
      memory = await createMemory({ ...options, name: SYNCED_NAME, passphrase, sync: { url } })
    } catch (error) {
      if (!isSiftError(error) || (error.code !== 'WRONG_KEY' && error.code !== 'INVALID_INPUT')) throw error
      note =
        error.code === 'WRONG_KEY'
          ? 'That passphrase does not open the memory stored on this device. Type the one you chose for it.'
          : `The memory did not open: ${error.message}`
      continue
    }
    say(`Syncing with ${server}…`)
    const { text, refused } = await syncState(memory, server)
    if (!refused || (await memory.stats()).messages > 0) return { memory, state: text, refused }
    await memory.close()
    await deleteDatabase(SYNCED_NAME)
    note = `${text}. Type the passphrase your other devices use.`
  }
}

/** What the page hears from `watchSync`. */
export interface SyncEvents {
  /** The sync's state, for the status line. */
  state(text: string): void
  /**
   * The number of stored messages changed (another device's arrived, or this page stored a turn): resolves with
   * whether the page showed them; if not (a turn in flight), it is asked again at the next count.
   */
  arrived(): Promise<boolean>
}

/**
 * Counts the stored messages every COUNT_CHECK_MS, and asks whether the memory is synced every SYNC_CHECK_MS, until
 * the server refuses the passphrase (it stays refused: the memory then goes on on this device alone).
 */
export function watchSync(memory: Memory, url: string, events: SyncEvents): void {
  const server = new URL(url).host
  let seen = -1
  const countTimer = setInterval(async () => {
    const { messages } = await memory.stats()
    if (messages !== seen && (await events.arrived())) seen = messages
  }, COUNT_CHECK_MS)
  const syncTimer = setInterval(async () => {
    const { text, refused } = await syncState(memory, server)
    events.state(text)
    if (refused) {
      clearInterval(countTimer)
      clearInterval(syncTimer)
    }
  }, SYNC_CHECK_MS)
}
