import type { ForgetSentence, ForgettableMatch, Memory } from '../src/types'
import { describeError, element, formatDay, make } from './dom'

/** A match's content with the sentences that matched marked, as text nodes and `<mark>`s. */
function markedContent({ content, sentences }: ForgettableMatch): (string | HTMLElement)[] {
  const ranges = [...sentences].sort((a, b) => a.start - b.start)
  const parts: (string | HTMLElement)[] = []
  let cursor = 0
  for (const { start, end } of ranges) {
    if (start < cursor) continue
    parts.push(content.slice(cursor, start), make('mark', 'picked picked-forget', content.slice(start, end)))
    cursor = end
  }
  parts.push(content.slice(cursor))
  return parts
}

/** Sentences of a match offered to tick: its best ones, enough to find the one meant without reading a long list. */
const SENTENCES_SHOWN = 3

/**
 * "Ask to forget": the user writes what to forget in their own words (a whole chat message will do),
 * `findForgettable` lists the messages it refers to (best first, each with why and its matching sentences), the user
 * ticks the sentences to remove, and only then are they forgotten (`forget({ sentences })`): the rest of each message
 * stays.
 */
export function createForgetRequest(memory: Memory, forgotten: (count: number) => Promise<void>): void {
  const form = element<HTMLFormElement>('forget-form')
  const text = element<HTMLInputElement>('forget-text')
  const matches = element<HTMLDivElement>('forget-matches')

  function show(found: ForgettableMatch[]): void {
    if (found.length === 0) {
      matches.replaceChildren(make('p', 'hint', 'Nothing stored matches that request.'))
      return
    }
    const list = make('ol', 'forget-list')
    const boxes: [HTMLInputElement, ForgetSentence][] = []
    found.forEach((match, index) => {
      const content = make('span', 'forget-content')
      content.dir = 'auto'
      content.append(...markedContent(match))
      const sentences = make('ul', 'forget-sentences')
      match.sentences.slice(0, SENTENCES_SHOWN).forEach((sentence, rank) => {
        const box = make('input')
        box.type = 'checkbox'
        box.checked = index === 0 && rank === 0
        box.id = `forget-sentence-${index}-${rank}`
        const label = make('label', 'forget-sentence-text', sentence.text)
        label.htmlFor = box.id
        label.dir = 'auto'
        const item = make('li', 'forget-sentence')
        item.append(box, label)
        sentences.append(item)
        boxes.push([box, { messageId: match.messageId, start: sentence.start, end: sentence.end }])
      })
      const entry = make('li', 'forget-match')
      entry.append(
        make('span', 'turn-label', `${match.role} · ${formatDay(match.timestamp)} · ${match.why}`),
        content,
        sentences,
      )
      list.append(entry)
    })
    const confirm = make('button', 'danger', 'Forget the ticked sentences')
    confirm.type = 'button'
    confirm.id = 'forget-confirm'
    confirm.addEventListener('click', () => {
      const ticked = boxes.filter(([box]) => box.checked).map(([, sentence]) => sentence)
      if (ticked.length === 0) return
      confirm.disabled = true
      memory
        .forget({ sentences: ticked })
        .then(async (count) => {
          matches.replaceChildren(make('p', 'hint', `Forgot ${count} sentence${count === 1 ? '' : 's'}.`))
          text.value = ''
          await forgotten(count)
        })
        .catch((error: unknown) => {
          confirm.disabled = false
          matches.append(make('p', 'error', describeError(error)))
        })
    })
    matches.replaceChildren(
      make('p', 'hint', 'Tick the sentences that should go, then confirm. Nothing is removed before that.'),
      list,
      confirm,
    )
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault()
    memory
      .findForgettable(text.value, { limit: 5 })
      .then(show)
      .catch((error: unknown) => matches.replaceChildren(make('p', 'error', describeError(error))))
  })
}
