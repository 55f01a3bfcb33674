import type { ImportResult, Memory } from '../src/types'
import { describeError, element, formatCount, make } from './dom'
import { readHistoryFile, type FileConversation } from './history-files'

/** Says what an import did, or why it stored nothing (an import is all or nothing). */
function importMessage(result: ImportResult, what: string): string {
  return `Loaded ${what}: ${formatCount(result.messages)} messages, ${formatCount(result.sentences)} sentences. Embedding them now.`
}

/**
 * Loading a file: a plain message array or a Sift export goes to `memory.import` as it is; a LoCoMo file or a
 * ChatGPT export offers its conversations in a menu, and the one picked is imported. Each import is checked whole
 * before anything is stored, so a bad file leaves the history as it was.
 */
export function createFileLoader(memory: Memory, loaded: () => Promise<void>): void {
  const input = element<HTMLInputElement>('file')
  const picker = element<HTMLDivElement>('file-picker')
  const menu = element<HTMLSelectElement>('file-conversation')
  const loadButton = element<HTMLButtonElement>('file-load')
  const status = element<HTMLParagraphElement>('load-status')
  let conversations: FileConversation[] = []

  async function importData(data: unknown, what: string): Promise<void> {
    status.textContent = `Loading ${what}…`
    try {
      status.textContent = importMessage(await memory.import(data), what)
    } catch (error) {
      status.textContent = `Nothing was loaded: ${describeError(error)}`
      return
    }
    await loaded()
  }

  input.addEventListener('change', () => {
    const file = input.files?.[0]
    picker.hidden = true
    if (!file) return
    status.textContent = `Reading ${file.name}…`
    file
      .text()
      .then(async (text) => {
        const history = readHistoryFile(text)
        if (history.kind === 'importable') {
          await importData(
            history.data,
            `${file.name} (${history.format === 'sift-export' ? 'Sift export' : 'message array'})`,
          )
          return
        }
        conversations = history.conversations
        menu.replaceChildren(
          ...conversations.map((conversation, index) =>
            Object.assign(make('option', undefined, conversation.title), { value: String(index) }),
          ),
        )
        picker.hidden = false
        status.textContent = `${file.name}: ${history.format === 'locomo' ? 'LoCoMo' : 'ChatGPT export'} with ${conversations.length} conversation${conversations.length === 1 ? '' : 's'}. Pick one to load.`
        menu.focus()
      })
      .catch((error: unknown) => (status.textContent = describeError(error)))
  })

  loadButton.addEventListener('click', () => {
    const conversation = conversations[Number(menu.value)]
    if (!conversation) return
    loadButton.disabled = true
    importData(conversation.messages, conversation.title).finally(() => (loadButton.disabled = false))
  })
}
