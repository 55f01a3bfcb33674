/** A sentence, by its sid, with its score in some ranking: what every index search and every ranking yields. */
export interface ScoredSid {
  sid: number
  score: number
}
