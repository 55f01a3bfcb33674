import type { Language } from '../../text/text-analysis'
import { grownArray } from '../../util/grown-array'

/** A language holds this share of a scope's sentences to count as one of its languages (`likelyIn`). */
const LIKELY_SHARE = 0.1

/** The sentence languages as a snapshot holds them: the codes, and each sid's index into them plus one (0: none). */
export interface SerializedSentenceLanguages {
  codes: string[]
  /** By sid: 1 + the index of its language in `codes`; 0 for a sid not indexed or whose language is unknown. */
  bySid: Uint8Array
}

/**
 * The language each indexed sentence was analysed in (detected when it was indexed), and how many sentences each
 * conversation holds in each language: which languages a request about a conversation is likely to be in.
 */
export class SentenceLanguages {
  private codes: Language[] = []
  private readonly ids = new Map<Language, number>()
  private bySid = new Uint8Array(0)
  /** Per conversation group: sentences per language id (index 0: unknown). */
  private readonly counts = new Map<number, number[]>()

  /** Records `sid` (of conversation `group`) as written in `language`. */
  set(sid: number, group: number, language: Language | undefined): void {
    const id = language === undefined ? 0 : this.idOf(language)
    if (sid >= this.bySid.length) this.bySid = grownArray(this.bySid, Math.max(sid + 1, 2 * this.bySid.length))
    this.bySid[sid] = id
    const counts = this.counts.get(group) ?? []
    this.counts.set(group, counts)
    counts[id] = (counts[id] ?? 0) + 1
  }

  /** Forgets `sid`, which was a sentence of conversation `group`. */
  remove(sid: number, group: number): void {
    if (sid >= this.bySid.length) return
    const counts = this.counts.get(group)
    if (counts) counts[this.bySid[sid]]--
    this.bySid[sid] = 0
  }

  /** The language `sid` was analysed in; undefined when unknown or not indexed. */
  languageOf(sid: number): Language | undefined {
    const id = sid < this.bySid.length ? this.bySid[sid] : 0
    return id === 0 ? undefined : this.codes[id - 1]
  }

  /**
   * The languages holding at least `LIKELY_SHARE` of the sentences of the `groups` given (all conversations when
   * undefined), most used first.
   */
  likelyIn(groups: readonly number[] | undefined): Language[] {
    const totals: number[] = []
    for (const [group, counts] of this.counts) {
      if (groups !== undefined && !groups.includes(group)) continue
      counts.forEach((count, id) => {
        if (id > 0) totals[id] = (totals[id] ?? 0) + count
      })
    }
    const sum = totals.reduce((all, count) => all + (count ?? 0), 0)
    const likely: [Language, number][] = []
    totals.forEach((count, id) => {
      if (count > 0 && count >= LIKELY_SHARE * sum) likely.push([this.codes[id - 1], count])
    })
    return likely.sort((a, b) => b[1] - a[1]).map(([language]) => language)
  }

  /** The languages of the sids below `sidEnd` that `live` holds, for a snapshot; only the codes still in use are kept. */
  serialize(sidEnd: number, live: (sid: number) => boolean): SerializedSentenceLanguages {
    const codes: string[] = []
    const renumbered = new Map<number, number>()
    const bySid = new Uint8Array(sidEnd)
    for (let sid = 0; sid < sidEnd; sid++) {
      const id = sid < this.bySid.length ? this.bySid[sid] : 0
      if (id === 0 || !live(sid)) continue
      let kept = renumbered.get(id)
      if (kept === undefined) renumbered.set(id, (kept = codes.push(this.codes[id - 1])))
      bySid[sid] = kept
    }
    return { codes, bySid }
  }

  /** The languages of a snapshot, each sid counted in its conversation (`groupOf`). */
  static deserialize(
    snapshot: SerializedSentenceLanguages,
    groupOf: (sid: number) => number | undefined,
  ): SentenceLanguages {
    const languages = new SentenceLanguages()
    languages.codes = [...snapshot.codes]
    languages.codes.forEach((code, i) => languages.ids.set(code, i + 1))
    languages.bySid = new Uint8Array(snapshot.bySid)
    languages.bySid.forEach((id, sid) => {
      const group = groupOf(sid)
      if (group === undefined) return
      const counts = languages.counts.get(group) ?? []
      languages.counts.set(group, counts)
      counts[id] = (counts[id] ?? 0) + 1
    })
    return languages
  }

  private idOf(language: Language): number {
    let id = this.ids.get(language)
    if (id === undefined) {
      // 255 languages fill the byte; a 256th is recorded as unknown rather than wrapping around.
      if (this.codes.length === 255) return 0
      id = this.codes.push(language)
      this.ids.set(language, id)
    }
    return id
  }
}
