import { encryptionLines } from './encryption-summary'
import { goalLines, scaleLines } from './goal-lines'
import type { PerfReport } from './perf-summary'

const ms = (value: number | undefined) =>
  value === undefined || Number.isNaN(value)
    ? '—'
    : value >= 100
      ? value.toFixed(0)
      : value >= 1
        ? value.toFixed(1)
        : value.toFixed(2)
const pct = (value: number | undefined) =>
  value === undefined || Number.isNaN(value) ? '—' : `${(value * 100).toFixed(0)}%`

/** The human-readable summary `bench:perf` prints; the JSON holds the same numbers and more. */
export function perfTable(report: PerfReport): string {
  const lines: string[] = []
  const { meta } = report
  lines.push(`Sift bench:perf — ${String(meta.date)} — commit ${String(meta.commit)} — ${String(meta.chromium)}`)
  lines.push(`vectors: ${String(meta.vectorSource)}`)
  lines.push('')
  lines.push('Embedding (real model, sentences/s, median of runs):')
  for (const [backend, rates] of Object.entries(report.embedSentencesPerSecond)) {
    const batches = Object.entries(rates)
      .filter(([k]) => k !== 'loadMs')
      .map(([b, r]) => `batch ${b}: ${r}`)
      .join('  ')
    lines.push(`  ${backend.padEnd(7)} ${batches}  (model load ${rates.loadMs} ms)`)
  }
  const { autoBackend } = report
  if (autoBackend)
    lines.push(
      `  device 'auto' picks: ${autoBackend.wasmLaunch.backend} (plain launch, adapter ${autoBackend.wasmLaunch.webgpuAdapter}); ${autoBackend.webgpuLaunch ? `${autoBackend.webgpuLaunch.backend} (--enable-unsafe-webgpu, adapter ${autoBackend.webgpuLaunch.webgpuAdapter})` : 'WebGPU launch skipped'}`,
    )
  lines.push('')
  const i = report.ingest
  if (i)
    lines.push(
      `Ingest (real model, ${i.backend}, one add per message): ${i.sentences} sentences / ${i.messages} messages in ${ms(i.ms)} ms = ${report.ingestSentencesPerSecond} sentences/s, ${i.messagesPerSecond} messages/s; UI longest block ${ms(i.ui.longestBlockMs)} ms, longest longtask ${ms(i.ui.longestTaskMs)} ms`,
    )
  lines.push('Load (synthetic vectors via the embedding cache, 1,000 messages per add):')
  for (const l of report.load) {
    lines.push(
      `  to ${l.sentences} sentences: +${l.added} in add ${ms(l.addMs)} ms + indexed ${ms(l.indexedMs)} ms = ${l.sentencesPerSecond}/s (${l.sentencesPerSecondWithoutVectorGeneration}/s without synthetic vector generation); reopen ${ms(l.openMs)} ms; UI block ${ms(l.ui.longestBlockMs)} ms; dense index: ${l.denseIndex.kind === 'exact' ? 'exact scan' : `${l.denseIndex.lists} coarse lists, probe share ${l.denseIndex.probeShare.toFixed(4)} (trained at ${l.denseIndex.trainedRows} rows)`}`,
    )
  }
  const imported = report.import
  if (imported) {
    const memory =
      'bytes' in imported.memory
        ? `${(imported.memory.bytes / 1e6).toFixed(0)} MB JS memory after (page + workers)`
        : `JS memory: ${imported.memory.unavailable}`
    lines.push(
      `Import (one export, ${(imported.chars / 1e6).toFixed(1)} M chars of JSON, into a new store): ${imported.sentences} sentences / ${imported.messages} messages stored in ${ms(imported.storeMs)} ms (${imported.storedSentencesPerSecond}/s), then indexed in ${ms(imported.indexedMs)} ms (synthetic vectors, ${ms(imported.generateMs)} ms of it making them); UI block ${ms(imported.ui.longestBlockMs)} ms; ${memory}`,
    )
  }
  if (report.encryption) lines.push(...encryptionLines(report.encryption))
  lines.push('')
  lines.push(
    'buildContext, ms inside the worker (default budget 8000); hybrid and dense without the query embedding, +query with it:',
  )
  lines.push(
    '  size      hybrid p50/p95   +query p50/p95   dense p50/p95   round trip p95   recall@50 hybrid/dense   candidates p50',
  )
  for (const [size, h] of Object.entries(report.buildContext)) {
    const d = report.buildContextDense[size]
    lines.push(
      `  ${size.padEnd(9)} ${`${ms(h.p50)} / ${ms(h.p95)}`.padEnd(16)} ${`${ms(h.p50WithQuery)} / ${ms(h.p95WithQuery)}`.padEnd(16)} ${`${ms(d?.p50)} / ${ms(d?.p95)}`.padEnd(15)} ${ms(h.roundTrip.p95).padEnd(16)} ${`${pct(h.recallAt50)} / ${pct(d?.recallAt50)}`.padEnd(24)} ${h.candidatesP50}`,
    )
  }
  const lookups = Object.entries(report.buildContext).map(([size, h]) => `${size}: ${ms(h.syntheticQueryMsP50)}`)
  lines.push(
    `  (left out above: the synthetic query vector's lookup that stands for the embedding, p50 ${lookups.join(', ')} ms)`,
  )
  lines.push('')
  lines.push('Peers (same texts and vectors, top-50, ms inside their worker):')
  for (const [peer, sizes] of Object.entries(report.peers)) {
    for (const [size, p] of Object.entries(sizes)) {
      const ratio = report.siftOverPeer[peer]?.[size]
      const vectorRatio = report.siftOverPeer.oramaVector?.[size]
      const vector = p.vector
        ? `; vector p50/p95 ${ms(p.vector.p50)} / ${ms(p.vector.p95)} recall@50 ${pct(p.vector.recallAt50)} (Sift dense/peer p95 ${vectorRatio?.p95 ?? '—'})`
        : ''
      const build = p.complete
        ? `built ${p.built} in ${ms(p.buildMs)} ms`
        : `BUILD STOPPED at ${p.built} rows after ${ms(p.buildMs)} ms (time limit)`
      const failed = p.error ? ` FAILED: ${p.error}` : ''
      lines.push(
        `  ${peer.padEnd(7)} ${size.padEnd(7)} ${p.mode} p50/p95 ${ms(p.p50)} / ${ms(p.p95)} recall@50 ${pct(p.recallAt50)}${failed}${vector}; ${build}; Sift ${ratio?.sift ?? ''}/peer p50 ${ratio?.p50 ?? '—'}, p95 ${ratio?.p95 ?? '—'}`,
      )
    }
  }
  lines.push('')
  lines.push('Cold start (createMemory on the existing store → first context, real model on the query):')
  for (const [size, total] of Object.entries(report.coldStartMs)) {
    const detail = report.coldStart[size] as { openMsP50: number; firstContextMsP50: number; rawReadMsP50: number }
    lines.push(
      `  ${size.padEnd(9)} ${total} ms (open ${detail.openMsP50} ms + first context ${detail.firstContextMsP50} ms); raw read of the records ${detail.rawReadMsP50} ms: ${(total / detail.rawReadMsP50).toFixed(2)}× the floor`,
    )
  }
  lines.push('')
  lines.push('Footprint:')
  for (const f of report.footprint) {
    lines.push(
      `  ${String(f.sentences).padEnd(9)} IndexedDB on disk ${(f.diskBytes / 1e6).toFixed(1)} MB (text ${(f.textBytes / 1e6).toFixed(1)} MB) = ${f.diskBytesPerSentenceBeyondText} B/sentence beyond text; storage.estimate ${f.usageBytesPerSentenceBeyondText} B/sentence`,
    )
  }
  const heap = report.jsHeapBytesAfterLoad as { size?: number; bytes?: number; unavailable?: string } | undefined
  lines.push(
    `  JS memory after opening ${heap?.size ?? '?'} sentences: ${heap?.bytes !== undefined ? `${(heap.bytes / 1e6).toFixed(0)} MB (page + workers, measureUserAgentSpecificMemory)` : (heap?.unavailable ?? '—')}`,
  )
  for (const block of [scaleLines(report.scale), goalLines(report.goals)])
    if (block.length > 0) lines.push('', ...block)
  lines.push('')
  lines.push(`uiLongestBlockMs (during real-model ingest): ${report.uiLongestBlockMs}`)
  for (const error of report.errors) lines.push(`FAILED STEP: ${error}`)
  return lines.join('\n')
}
