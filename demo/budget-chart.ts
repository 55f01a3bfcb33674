import type { Memory, StoredMessage } from '../src/types'
import { contextOptions, type AskSettings } from './ask-controls'
import { formatCount, formatDay, make } from './dom'

/** The budgets the chart shows, as shares of the history in scope. */
const CHART_LEVELS = [0.01, 0.05, 0.1, 0.25] as const

/** One row of the chart: a real context at a share of the history, and the messages it drew from. */
export interface FillRow {
  level: number
  budget: number
  used: number
  /** Ids of the messages with at least one sentence in the context. */
  messageIds: Set<string>
}

/**
 * Builds the context at each chart level, one call after another (the engine answers one call at a time anyway).
 * The levels are shares of the history's characters, so the budgets are characters even when the Ask budget counts
 * tokens: a share of the history in tokens would need all of it counted with the tokenizer, which only the engine has.
 */
export async function measureFill(memory: Memory, settings: AskSettings, historyChars: number): Promise<FillRow[]> {
  const rows: FillRow[] = []
  for (const level of CHART_LEVELS) {
    const budget = Math.max(1, Math.round(historyChars * level))
    const context = await memory.buildContext(settings.request, contextOptions(settings, budget))
    rows.push({
      level,
      budget,
      used: context.stats.used,
      messageIds: new Set(context.items.map((item) => item.messageId)),
    })
  }
  return rows
}

/** For each row, the turns (indexes into `turns`) it holds, and which of them no smaller budget held. */
function fillCells(
  turns: readonly StoredMessage[],
  rows: readonly FillRow[],
): { held: number[]; added: Set<number> }[] {
  const before = new Set<string>()
  return rows.map((row) => {
    const held: number[] = []
    const added = new Set<number>()
    turns.forEach((turn, index) => {
      if (!row.messageIds.has(turn.id)) return
      held.push(index)
      if (!before.has(turn.id)) added.add(index)
    })
    for (const id of row.messageIds) before.add(id)
    return { held, added }
  })
}

const SVG = 'http://www.w3.org/2000/svg'
const LABEL_HEIGHT = 18
const STRIP_HEIGHT = 20
const ROW_GAP = 8
const AXIS_HEIGHT = 20

function svgElement<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number>,
  text?: string,
): SVGElementTagNameMap[K] {
  const created = document.createElementNS(SVG, tag)
  for (const [name, value] of Object.entries(attributes)) created.setAttribute(name, String(value))
  if (text !== undefined) created.textContent = text
  return created
}

function percent(level: number): string {
  return `${Math.round(level * 100)} %`
}

/**
 * Draws the rows into `svg` at its current width (in pixels, so its text keeps its size on a phone): per row a label
 * and a strip of the history's turns, first to last, with each turn in the context filled (darker where it first
 * comes in) and titled with its opening words.
 */
export function drawFillChart(svg: SVGSVGElement, turns: readonly StoredMessage[], rows: readonly FillRow[]): void {
  const width = Math.max(200, Math.floor(svg.getBoundingClientRect().width))
  const height = rows.length * (LABEL_HEIGHT + STRIP_HEIGHT + ROW_GAP) + AXIS_HEIGHT
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`)
  svg.setAttribute('height', String(height))
  const cellWidth = width / Math.max(1, turns.length)
  const shapes: SVGElement[] = []
  fillCells(turns, rows).forEach(({ held, added }, rowIndex) => {
    const row = rows[rowIndex]
    const top = rowIndex * (LABEL_HEIGHT + STRIP_HEIGHT + ROW_GAP)
    const label = `${percent(row.level)} · ${formatCount(row.used)} of ${formatCount(row.budget)} chars · ${held.length} turns (${added.size} new)`
    shapes.push(svgElement('text', { x: 0, y: top + 13, class: 'chart-label' }, label))
    shapes.push(svgElement('rect', { x: 0, y: top + LABEL_HEIGHT, width, height: STRIP_HEIGHT, class: 'chart-strip' }))
    for (const index of held) {
      const turn = turns[index]
      const cell = svgElement('rect', {
        x: index * cellWidth,
        y: top + LABEL_HEIGHT,
        width: Math.max(2, cellWidth - (cellWidth > 4 ? 1 : 0)),
        height: STRIP_HEIGHT,
        class: added.has(index) ? 'chart-cell chart-cell-new' : 'chart-cell',
      })
      cell.append(
        svgElement(
          'title',
          {},
          `#${turn.seq} ${turn.role}, ${formatDay(turn.timestamp)}: ${turn.content.slice(0, 90)}`,
        ),
      )
      shapes.push(cell)
    }
  })
  if (turns.length > 0) {
    const axisY = height - 5
    shapes.push(
      svgElement(
        'text',
        { x: 0, y: axisY, class: 'chart-axis' },
        `#${turns[0].seq} · ${formatDay(turns[0].timestamp)}`,
      ),
    )
    const last = turns[turns.length - 1]
    shapes.push(
      svgElement(
        'text',
        { x: width, y: axisY, class: 'chart-axis', 'text-anchor': 'end' },
        `${formatDay(last.timestamp)} · #${last.seq}`,
      ),
    )
  }
  svg.replaceChildren(...shapes)
}

/** The chart in words, for screen readers and for reading exact turn numbers. */
export function fillSummary(list: HTMLUListElement, turns: readonly StoredMessage[], rows: readonly FillRow[]): void {
  const cells = fillCells(turns, rows)
  list.replaceChildren(
    ...rows.map((row, index) => {
      const added = [...cells[index].added].map((turn) => `#${turns[turn].seq}`)
      const shown = added.length > 12 ? [...added.slice(0, 12), `and ${added.length - 12} more`] : added
      const text = `${percent(row.level)} (${formatCount(row.budget)} characters): ${cells[index].held.length} turns; new: ${shown.join(', ') || 'none'}`
      return make('li', undefined, text)
    }),
  )
}
