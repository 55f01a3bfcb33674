// Reads a TensorFlow.js graph model (model.json + binary weight shards) from disk into plain typed arrays,
// keyed by graph node name, so the converter can look weights and small constants up by the names the
// graph gives them.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

export interface TfjsNode {
  name: string
  op: string
  input?: string[]
  attr?: Record<string, unknown>
}

export interface TfjsTensor {
  shape: number[]
  data: Float32Array | Int32Array
}

interface WeightEntry {
  name: string
  shape: number[]
  dtype: 'float32' | 'int32'
}

interface ModelJson {
  modelTopology: { node: TfjsNode[] }
  weightsManifest: { paths: string[]; weights: WeightEntry[] }[]
}

export interface TfjsGraph {
  nodes: TfjsNode[]
  tensors: Map<string, TfjsTensor>
  /** The raw bytes of model.json and every shard, in manifest order, for change detection. */
  files: string[]
}

export function readTfjsGraph(dir: string): TfjsGraph {
  const modelPath = join(dir, 'model.json')
  const model = JSON.parse(readFileSync(modelPath, 'utf8')) as ModelJson
  const tensors = new Map<string, TfjsTensor>()
  const files = [modelPath]
  for (const group of model.weightsManifest) {
    const shardPaths = group.paths.map((p) => join(dir, p))
    files.push(...shardPaths)
    const buffer = Buffer.concat(shardPaths.map((p) => readFileSync(p)))
    let offset = 0
    for (const weight of group.weights) {
      const count = weight.shape.reduce((a, b) => a * b, 1)
      const bytes = buffer.subarray(offset, offset + count * 4)
      const copy = new ArrayBuffer(count * 4)
      new Uint8Array(copy).set(bytes)
      if (weight.dtype === 'float32') tensors.set(weight.name, { shape: weight.shape, data: new Float32Array(copy) })
      else if (weight.dtype === 'int32') tensors.set(weight.name, { shape: weight.shape, data: new Int32Array(copy) })
      else throw new Error(`tfjs-graph: unsupported weight dtype ${String(weight.dtype)} for ${weight.name}`)
      offset += count * 4
    }
    if (offset !== buffer.length) throw new Error(`tfjs-graph: shards hold ${buffer.length} bytes, manifest ${offset}`)
  }
  return { nodes: model.modelTopology.node, tensors, files }
}

/** Looks a tensor up by node name, failing loudly when the graph no longer has it. */
export function requireTensor(graph: TfjsGraph, name: string): TfjsTensor {
  const tensor = graph.tensors.get(name)
  if (!tensor) throw new Error(`tfjs-graph: the graph has no constant named ${name}`)
  return tensor
}
