import type { MirrorDatabase } from './replica-side'

/** The mirror's `_local` document (never replicated) that says how far the store has taken in the mirror's changes. */
const APPLIED_ID = '_local/sift-applied'
/**
 * The mirror's `_local` document that counts the clears asked for here (`clearing`), written before the store is
 * cleared: a round that finds more than the applied marker has handled sends the deletion of everything, though the
 * page that cleared closed before its round ran.
 */
const CLEARS_ID = '_local/sift-clears'
/**
 * The mirror's `_local` document that holds when the earliest add or import not yet written to the mirror began
 * (`since`, absent when there is none), written before that add stores: a message a tab closed before its round
 * stored is dated by it in the next session, not by when that session's first round found it.
 */
const STORING_ID = '_local/sift-storing'

/**
 * How far the store has taken in the mirror (`seq`), its forget revision when the round last wrote its state
 * (`revision`, undefined before the first: a message gone from the store is a forget only if the revision moved),
 * and how many clears (`CLEARS_ID`) the rounds have sent.
 */
export interface AppliedMarker {
  seq: number
  revision?: number
  clears: number
}

/**
 * What a device notes for itself in its mirror's `_local` documents, which never replicate: the applied marker, the
 * clears asked for, and when the adds not yet written to the mirror began. Each is written before the change it
 * speaks for, so that a round in a later session still acts on it when the page closed first.
 */
export class MirrorNotes {
  /** When the earliest add or import not yet read by a round began (epoch milliseconds): its messages' `addedAt`. */
  private storingSince: number | undefined
  /** Adds and imports begun and not ended: a round that reads the store meanwhile may miss what they store. */
  private storesUnderWay = 0
  /** The writes of `STORING_ID`, one after another; the latest is the one every add begun meanwhile waits for. */
  private storingNoted: Promise<void> = Promise.resolve()
  /**
   * Whether `STORING_ID` may hold a date `storingSince` lacks: one from an earlier session, or from a round that failed
   * before clearing it. Otherwise the note is not read: `storingSince` is as early.
   */
  private noteMayHold = true

  constructor(private readonly mirror: MirrorDatabase) {}

  async applied(): Promise<AppliedMarker> {
    const marker = await this.get<Partial<AppliedMarker>>(APPLIED_ID)
    return { seq: Number(marker?.seq ?? 0), revision: marker?.revision, clears: Number(marker?.clears ?? 0) }
  }

  async saveApplied(marker: AppliedMarker): Promise<void> {
    await this.put(APPLIED_ID, marker)
  }

  /** How many clears were asked for here (`clearing`). */
  async clearsRequested(): Promise<number> {
    return Number((await this.get<{ requested: number }>(CLEARS_ID))?.requested ?? 0)
  }

  /** A clear is about to be made here. */
  async clearing(): Promise<void> {
    await this.put(CLEARS_ID, { requested: (await this.clearsRequested()) + 1 })
  }

  /**
   * An add or an import begins here. Its messages become sync records at the next round, tens of milliseconds later:
   * dated then, they would count as stored after a forget by scope another device made in between, and outlive it.
   */
  async storeBegan(at: number): Promise<void> {
    this.storesUnderWay++
    if (this.storingSince === undefined) {
      this.storingSince = at
      // Only the first add since the last round writes: the ones after it are later, and wait for that write.
      this.storingNoted = this.storingNoted.then(() => this.put(STORING_ID, { since: at })).catch(() => undefined)
    }
    await this.storingNoted
  }

  storeEnded(): void {
    this.storesUnderWay--
  }

  /**
   * When the adds a round is about to read began, at the earliest (undefined: none since the last round). Taken before
   * the round reads the store: an add begun after it is the next round's, and one still under way may land after it.
   */
  async takeStoredFrom(): Promise<number | undefined> {
    const noted = this.noteMayHold ? (await this.get<{ since?: number }>(STORING_ID))?.since : undefined
    const from = noted === undefined ? this.storingSince : Math.min(noted, this.storingSince ?? noted)
    if (this.storesUnderWay === 0) this.storingSince = undefined
    // Read again until `storedWritten` clears it: a round that fails before then leaves the date only there.
    this.noteMayHold = from !== undefined
    return from
  }

  /**
   * The round wrote what was stored from `storedFrom` to the mirror, dated: the note is cleared, in the chain of those
   * notes and checked there, unless an add began during the round (its note stands). Failed, the round fails and is
   * repeated: a note left standing would date later adds too early.
   */
  async storedWritten(storedFrom: number | undefined): Promise<void> {
    if (storedFrom === undefined) return
    const cleared = this.storingNoted.then(async () => {
      if (this.storingSince === undefined) await this.put(STORING_ID, {})
    })
    this.storingNoted = cleared.catch(() => undefined)
    await cleared
    this.noteMayHold = false
  }

  /** A `_local` document of the mirror, undefined when there is none. */
  private async get<T>(id: string): Promise<T | undefined> {
    try {
      return (await this.mirror.get(id)) as T
    } catch {
      return undefined
    }
  }

  /** Writes a `_local` document of the mirror, replacing what it held. */
  private async put(id: string, fields: object): Promise<void> {
    const rev = (await this.get<{ _rev: string }>(id))?._rev
    await this.mirror.put({ _id: id, ...(rev ? { _rev: rev } : {}), ...fields })
  }
}
