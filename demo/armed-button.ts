import { make } from './dom'

/** How long a first click keeps a destructive button armed: long enough to read "Confirm", short enough to forget it. */
const ARMED_MS = 5000

/**
 * Makes a button for something that cannot be undone (forgetting) take two clicks: the first arms it and shows
 * `confirmLabel`, a second within a few seconds runs `action`; otherwise (or when the focus leaves it) it disarms.
 * Keyboard users get the same two steps, and nothing needs a modal dialog.
 */
export function arm(button: HTMLButtonElement, confirmLabel: string, action: () => void): HTMLButtonElement {
  const label = button.textContent ?? ''
  let timer: ReturnType<typeof setTimeout> | undefined
  const disarm = () => {
    clearTimeout(timer)
    timer = undefined
    button.textContent = label
    button.classList.remove('is-armed')
  }
  button.addEventListener('click', () => {
    if (timer === undefined) {
      button.textContent = confirmLabel
      button.classList.add('is-armed')
      timer = setTimeout(disarm, ARMED_MS)
      return
    }
    disarm()
    action()
  })
  button.addEventListener('blur', disarm)
  return button
}

/** A new two-click button (see `arm`). */
export function armedButton(label: string, confirmLabel: string, action: () => void): HTMLButtonElement {
  const button = make('button', 'armed', label)
  button.type = 'button'
  return arm(button, confirmLabel, action)
}
