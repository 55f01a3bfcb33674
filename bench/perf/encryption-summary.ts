import { percentile } from '../shared/latency-summary'
import type { ColdStartRun, EncryptionCost, EncryptionLoad, IngestResult } from './perf-results'

const round = (value: number) => Math.round(value)
const median = (values: readonly number[]) => round(percentile(values, 50))

/** The encryption section's figures: medians of the cold starts, rates of the loads and ingests, plain beside encrypted. */
export function encryptionSummary(cost: EncryptionCost) {
  const coldStart = (runs: ColdStartRun[]) => ({
    totalMsP50: median(runs.map((r) => r.totalMs)),
    openMsP50: median(runs.map((r) => r.openMs)),
    firstContextMsP50: median(runs.map((r) => r.firstContextMs)),
  })
  // Without the synthetic vectors' own making, which stands for the model and costs the same either way.
  const loadRate = (load: EncryptionLoad) => round(cost.size / ((load.addMs + load.indexedMs - load.generateMs) / 1000))
  const ingestRates = (runs: IngestResult[]) =>
    runs.map((run) => Math.round((run.sentences / (run.ms / 1000)) * 10) / 10)
  return {
    size: cost.size,
    coldStart: {
      plain: coldStart(cost.coldStart.plain),
      key: coldStart(cost.coldStart.key),
      passphrase: coldStart(cost.coldStart.passphrase),
    },
    loadSentencesPerSecond: { plain: loadRate(cost.load.plain), encrypted: loadRate(cost.load.encrypted) },
    changeKeyMs: round(cost.changeKeyMs),
    ingestSentencesPerSecond: { plain: ingestRates(cost.ingest.plain), encrypted: ingestRates(cost.ingest.encrypted) },
  }
}

/** The section's lines in the printed table. */
export function encryptionLines(summary: ReturnType<typeof encryptionSummary>): string[] {
  const { size, coldStart, loadSentencesPerSecond: load, ingestSentencesPerSecond: ingest } = summary
  const cold = (label: string, c: typeof coldStart.plain) =>
    `${label} ${c.totalMsP50} ms (open ${c.openMsP50} + first context ${c.firstContextMsP50})`
  return [
    `Encryption at rest (${size} sentences; medians):`,
    `  cold start to the first context: ${cold('plain', coldStart.plain)}; ${cold('CryptoKey', coldStart.key)}; ${cold('passphrase', coldStart.passphrase)}`,
    `  load with synthetic vectors (without their making): plain ${load.plain}/s, encrypted ${load.encrypted}/s; changeKey of the whole store ${summary.changeKeyMs} ms`,
    `  ingest (real model, one add per message), runs: plain ${ingest.plain.join(', ')} sentences/s; encrypted ${ingest.encrypted.join(', ')} sentences/s`,
  ]
}
