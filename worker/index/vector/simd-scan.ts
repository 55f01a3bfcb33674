/**
 * Integer dot products of int8 rows with an int16 query: the inner loop of the dense scan.
 *
 * The WebAssembly SIMD version is one function, assembled here byte by byte (no toolchain, no binary blob):
 *
 *   (func (export "dots") (param $codes i32) (param $rows i32) (param $stride i32) (param $query i32) (param $out i32)
 *     (local $d i32) (local $q i32) (local $acc v128) (local $x v128)
 *     block $done
 *       loop $row
 *         (br_if $done (i32.eqz (local.get $rows)))
 *         $acc = 0; $d = 0
 *         loop $chunk                                  ;; 16 dimensions per turn
 *           $x = v128.load($codes + $d)                ;; 16 × int8
 *           $q = $query + 2 × $d                       ;; 16 × int16 at $q, $q + 16
 *           $acc += i32x4.dot_i16x8_s(extend_low_s($x), v128.load($q))
 *           $acc += i32x4.dot_i16x8_s(extend_high_s($x), v128.load offset=16 ($q))
 *           $d += 16
 *           (br_if $chunk (i32.lt_u $d $stride))
 *         end
 *         i32.store($out, lane0 + lane1 + lane2 + lane3 of $acc)
 *         $out += 4; $codes += $stride; $rows -= 1
 *         br $row
 *       end
 *     end)
 *
 * Rows are `stride` bytes apart, `stride` a positive multiple of 16 (dims beyond `dim` are zero); the query holds
 * `stride` int16 values. Every sum is exact as long as |dot| < 2³¹, which `queryLimit` guarantees.
 */

/** Reads `rows` int8 rows at `codes` and writes each row's int32 dot product with the int16 query at `out`. */
export type DotKernel = (codes: number, rows: number, stride: number, query: number, out: number) => void

/**
 * The same for `count` rows picked by index: row `i32[list + 4i]` of the rows at `codes`, its dot written to
 * `out + 4i`. The module's second function, `gather`: the loop above with `$codes + row × $stride` as each row's
 * address, for scanning the rows of a few inverted lists.
 */
export type GatherKernel = (
  codes: number,
  list: number,
  count: number,
  stride: number,
  query: number,
  out: number,
) => void

/** Both kernels over one memory. */
export interface DotKernels {
  dots: DotKernel
  gather: GatherKernel
}

/** Bytes per row are padded to this, the SIMD width. */
export const ROW_ALIGN = 16

/** The largest query magnitude for which no dot of `stride` int8 values (|v| ≤ 127) can overflow int32. */
export function queryLimit(stride: number): number {
  return Math.min(32767, Math.floor(0x7fffffff / (127 * stride)))
}

const I32 = 0x7f
const V128 = 0x7b
const SIMD = 0xfd
const op = {
  block: 0x02,
  loop: 0x03,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  i32Load: 0x28,
  i32Store: 0x36,
  i32Const: 0x41,
  i32Eqz: 0x45,
  i32LtU: 0x49,
  i32Add: 0x6a,
  i32Sub: 0x6b,
  i32Mul: 0x6c,
  i32Shl: 0x74,
  voidBlock: 0x40,
}
/** SIMD opcodes, each written after the 0xfd prefix as an unsigned LEB128. */
const simd = {
  v128Load: 0x00,
  v128Const: 0x0c,
  i32x4ExtractLane: 0x1b,
  i16x8ExtendLowI8x16S: 0x87,
  i16x8ExtendHighI8x16S: 0x88,
  i32x4Add: 0xae,
  i32x4DotI16x8S: 0xba,
}

function uleb(value: number): number[] {
  const bytes: number[] = []
  do {
    let byte = value & 0x7f
    value >>>= 7
    if (value !== 0) byte |= 0x80
    bytes.push(byte)
  } while (value !== 0)
  return bytes
}

const simdOp = (code: number): number[] => [SIMD, ...uleb(code)]
const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body]
const name = (text: string): number[] => [...uleb(text.length), ...Array.from(text, (c) => c.charCodeAt(0))]

/**
 * One row's dot product, leaving it on the stack: `$row` is the row's address, `$d`, `$q`, `$acc`, `$x` scratch
 * locals; `$stride` and `$query` as in `dots`.
 */
function rowDot(row: number, stride: number, query: number, d: number, q: number, acc: number, x: number): number[] {
  const get = (local: number) => [op.localGet, local]
  const set = (local: number) => [op.localSet, local]
  const load = (offset: number) => [...simdOp(simd.v128Load), 0, ...uleb(offset)]
  const lane = (index: number) => [...get(acc), ...simdOp(simd.i32x4ExtractLane), index]
  return [
    ...simdOp(simd.v128Const),
    ...new Array<number>(16).fill(0),
    ...set(acc),
    op.i32Const,
    0,
    ...set(d),
    op.loop,
    op.voidBlock,
    ...get(row),
    ...get(d),
    op.i32Add,
    ...load(0),
    ...set(x),
    ...get(d),
    op.i32Const,
    1,
    op.i32Shl,
    ...get(query),
    op.i32Add,
    ...set(q),
    ...get(acc),
    ...get(x),
    ...simdOp(simd.i16x8ExtendLowI8x16S),
    ...get(q),
    ...load(0),
    ...simdOp(simd.i32x4DotI16x8S),
    ...simdOp(simd.i32x4Add),
    ...get(x),
    ...simdOp(simd.i16x8ExtendHighI8x16S),
    ...get(q),
    ...load(16),
    ...simdOp(simd.i32x4DotI16x8S),
    ...simdOp(simd.i32x4Add),
    ...set(acc),
    ...get(d),
    op.i32Const,
    16,
    op.i32Add,
    op.localTee,
    d,
    ...get(stride),
    op.i32LtU,
    op.brIf,
    0,
    op.end,
    ...lane(0),
    ...lane(1),
    op.i32Add,
    ...lane(2),
    op.i32Add,
    ...lane(3),
    op.i32Add,
  ]
}

/** The module's bytes: imports `env.memory`, exports `dots` and `gather`. */
export function dotKernelModule(): Uint8Array<ArrayBuffer> {
  const get = (local: number) => [op.localGet, local]
  const set = (local: number) => [op.localSet, local]
  const addTo = (local: number, amount: number[]) => [...get(local), ...amount, op.i32Add, ...set(local)]
  const dots = (() => {
    const [codes, rows, stride, query, out, d, q, acc, x] = [0, 1, 2, 3, 4, 5, 6, 7, 8]
    return [
      2,
      2,
      I32,
      2,
      V128,
      op.block,
      op.voidBlock,
      op.loop,
      op.voidBlock,
      ...get(rows),
      op.i32Eqz,
      op.brIf,
      1,
      ...get(out),
      ...rowDot(codes, stride, query, d, q, acc, x),
      op.i32Store,
      2,
      0,
      ...addTo(out, [op.i32Const, 4]),
      ...addTo(codes, get(stride)),
      ...get(rows),
      op.i32Const,
      1,
      op.i32Sub,
      ...set(rows),
      op.br,
      0,
      op.end,
      op.end,
      op.end,
    ]
  })()
  const gather = (() => {
    const [codes, list, count, stride, query, out, d, q, row, acc, x] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    return [
      2,
      3,
      I32,
      2,
      V128,
      op.block,
      op.voidBlock,
      op.loop,
      op.voidBlock,
      ...get(count),
      op.i32Eqz,
      op.brIf,
      1,
      ...get(list),
      op.i32Load,
      2,
      0,
      ...get(stride),
      op.i32Mul,
      ...get(codes),
      op.i32Add,
      ...set(row),
      ...get(out),
      ...rowDot(row, stride, query, d, q, acc, x),
      op.i32Store,
      2,
      0,
      ...addTo(out, [op.i32Const, 4]),
      ...addTo(list, [op.i32Const, 4]),
      ...get(count),
      op.i32Const,
      1,
      op.i32Sub,
      ...set(count),
      op.br,
      0,
      op.end,
      op.end,
      op.end,
    ]
  })()
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [2, 0x60, 5, I32, I32, I32, I32, I32, 0, 0x60, 6, I32, I32, I32, I32, I32, I32, 0]),
    ...section(2, [1, ...name('env'), ...name('memory'), 0x02, 0x00, 0x00]),
    ...section(3, [2, 0, 1]),
    ...section(7, [2, ...name('dots'), 0x00, 0, ...name('gather'), 0x00, 1]),
    ...section(10, [2, ...uleb(dots.length), ...dots, ...uleb(gather.length), ...gather]),
  ])
}

/** The SIMD kernels bound to `memory`, or undefined where WebAssembly SIMD is unavailable. */
export function simdDotKernels(memory: WebAssembly.Memory): DotKernels | undefined {
  if (typeof WebAssembly === 'undefined') return undefined
  const bytes = dotKernelModule()
  if (!WebAssembly.validate(bytes)) return undefined
  const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { memory } })
  return { dots: instance.exports.dots as DotKernel, gather: instance.exports.gather as GatherKernel }
}

/** The same integer dot products of listed rows in plain JavaScript: the fallback, and the reference for `gather`. */
export function jsGatherKernel(memory: { buffer: ArrayBufferLike }): GatherKernel {
  const dots = jsDotKernel(memory)
  return (codes, list, count, stride, query, out) => {
    const rows = new Int32Array(memory.buffer, list, count)
    for (let i = 0; i < count; i++) dots(codes + rows[i] * stride, 1, stride, query, out + 4 * i)
  }
}

/** The same integer dot products in plain JavaScript: the fallback, and the reference the SIMD kernel is tested against. */
export function jsDotKernel(memory: { buffer: ArrayBufferLike }): DotKernel {
  return (codes, rows, stride, query, out) => {
    const values = new Int8Array(memory.buffer)
    const q = new Int16Array(memory.buffer, query, stride)
    const dots = new Int32Array(memory.buffer, out, rows)
    for (let row = 0; row < rows; row++) {
      const base = codes + row * stride
      let s0 = 0
      let s1 = 0
      for (let i = 0; i < stride; i += 2) {
        s0 += values[base + i] * q[i]
        s1 += values[base + i + 1] * q[i + 1]
      }
      dots[row] = s0 + s1
    }
  }
}
