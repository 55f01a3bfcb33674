import type { ForgettableMatch, Memory } from '../src/types'
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

/**
 * "Ask to forget": the user writes what to forget in their own words, `findForgettable` lists the messages it
 * refers to (best first, each with why), the user ticks the ones to remove, and only then are they forgotten.
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
    const boxes: [HTMLInputElement, ForgettableMatch][] = []
    found.forEach((match, index) => {
      const box = make('input')
      box.type = 'checkbox'
      box.checked = index === 0
      box.id = `forget-match-${index}`
      const label = make('label')
      label.htmlFor = box.id
      label.append(
        make('span', 'turn-label', `${match.role} · ${formatDay(match.timestamp)} · ${match.why}`),
        make('span', 'forget-content'),
      )
      const content = label.lastElementChild as HTMLElement
      content.dir = 'auto'
      content.append(...markedContent(match))
      const entry = make('li', 'forget-match')
      entry.append(box, label)
      list.append(entry)
      boxes.push([box, match])
    })
    const confirm = make('button', 'danger', 'Forget the ticked messages')
    confirm.type = 'button'
    confirm.id = 'forget-confirm'
    confirm.addEventListener('click', () => {
      const ids = boxes.filter(([box]) => box.checked).map(([, match]) => match.messageId)
      if (ids.length === 0) return
      confirm.disabled = true
      memory
        .forget({ ids })
        .then(async (count) => {
          matches.replaceChildren(make('p', 'hint', `Forgot ${count} message${count === 1 ? '' : 's'}.`))
          text.value = ''
          await forgotten(count)
        })
        .catch((error: unknown) => {
          confirm.disabled = false
          matches.append(make('p', 'error', describeError(error)))
        })
    })
    matches.replaceChildren(
      make('p', 'hint', 'Tick what should go, then confirm. Nothing is removed before that.'),
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
