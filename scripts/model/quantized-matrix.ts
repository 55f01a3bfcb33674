import type { OnnxGraphBuilder } from './onnx-writer.js'

/**
 * Symmetric int8 weight with one float scale per slice (per output column for MatMul kernels, per row for
 * the token table), dequantised in-graph with Cast and Mul — plain ops every execution provider runs, and
 * ones ONNX Runtime folds into a float constant at session start, so the file shrinks 4× at no speed cost.
 */
export function quantizedMatrix(
  b: OnnxGraphBuilder,
  name: string,
  data: Float32Array,
  rows: number,
  cols: number,
  scaleAxis: 0 | 1,
): string {
  const slices = scaleAxis === 1 ? cols : rows
  const scales = new Float32Array(slices)
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const s = scaleAxis === 1 ? c : r
      scales[s] = Math.max(scales[s], Math.abs(data[r * cols + c]))
    }
  }
  for (let s = 0; s < slices; s++) scales[s] = scales[s] > 0 ? scales[s] / 127 : 1
  const quantized = new Int8Array(rows * cols)
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const scale = scales[scaleAxis === 1 ? c : r]
      quantized[r * cols + c] = Math.max(-127, Math.min(127, Math.round(data[r * cols + c] / scale)))
    }
  }
  const q = b.initializer(`${name}/int8`, [rows, cols], quantized)
  const s = b.initializer(`${name}/scale`, scaleAxis === 1 ? [1, cols] : [rows, 1], scales)
  return b.op('Mul', [b.op('Cast', [q], { to: 1 }), s])
}
