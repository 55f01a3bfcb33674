// A minimal ONNX graph builder on top of the protobufjs-generated definitions in `onnx-proto`: named
// initializers, nodes with typed attributes, and serialisation to a ModelProto byte array.
import onnxProto from 'onnx-proto'

const { onnx } = onnxProto

export type ElementType = 'float32' | 'int8' | 'int64'

const DATA_TYPE: Record<ElementType, number> = {
  float32: onnx.TensorProto.DataType.FLOAT,
  int8: onnx.TensorProto.DataType.INT8,
  int64: onnx.TensorProto.DataType.INT64,
}

export type AttributeValue = number | number[] | { float: number }

export interface GraphIo {
  name: string
  type: ElementType
  /** Symbolic names ('batch') or fixed sizes per dimension. */
  dims: (string | number)[]
}

type TensorData = Float32Array | Int8Array | BigInt64Array

export class OnnxGraphBuilder {
  private readonly nodes: InstanceType<typeof onnx.NodeProto>[] = []
  private readonly initializers: InstanceType<typeof onnx.TensorProto>[] = []
  private readonly names = new Set<string>()
  private counter = 0

  /** Adds a constant tensor stored in the model file and returns its name. */
  initializer(name: string, dims: number[], data: TensorData): string {
    if (this.names.has(name)) throw new Error(`onnx-writer: duplicate tensor name ${name}`)
    this.names.add(name)
    return this.store(name, dims, data)
  }

  private store(name: string, dims: number[], data: TensorData): string {
    const count = dims.reduce((a, b) => a * b, 1)
    if (count !== data.length) throw new Error(`onnx-writer: ${name} has ${data.length} values for dims [${dims}]`)
    const type: ElementType = data instanceof Float32Array ? 'float32' : data instanceof Int8Array ? 'int8' : 'int64'
    this.initializers.push(
      onnx.TensorProto.create({
        name,
        dims,
        dataType: DATA_TYPE[type],
        rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      }),
    )
    return name
  }

  /** A float32 scalar or vector constant. */
  floats(values: number[], dims: number[] = [values.length]): string {
    return this.store(this.fresh('const_f'), dims, new Float32Array(values))
  }

  /** An int64 vector constant (shapes, axes, split sizes). */
  ints(values: number[], dims: number[] = [values.length]): string {
    return this.store(this.fresh('const_i'), dims, BigInt64Array.from(values.map((v) => BigInt(v))))
  }

  /** Adds one node and returns the names of its outputs (one unless `outputs` says more). */
  node(op: string, inputs: string[], attributes: Record<string, AttributeValue> = {}, outputs = 1): string[] {
    const outputNames = Array.from({ length: outputs }, () => this.fresh(op))
    this.nodes.push(
      onnx.NodeProto.create({
        opType: op,
        name: this.fresh(`${op}_node`),
        input: inputs,
        output: outputNames,
        attribute: Object.entries(attributes).map(([name, value]) => attribute(name, value)),
      }),
    )
    return outputNames
  }

  /** Adds a single-output node. */
  op(op: string, inputs: string[], attributes: Record<string, AttributeValue> = {}): string {
    return this.node(op, inputs, attributes)[0]
  }

  /** Renames the tensor `from` to a graph output by routing it through Identity. */
  output(from: string, name: string): string {
    this.nodes.push(
      onnx.NodeProto.create({ opType: 'Identity', name: `${name}_identity`, input: [from], output: [name] }),
    )
    return name
  }

  encode(inputs: GraphIo[], outputs: GraphIo[], opset: number, producer: string): Uint8Array {
    const model = onnx.ModelProto.create({
      irVersion: 8,
      producerName: producer,
      opsetImport: [{ domain: '', version: opset }],
      graph: onnx.GraphProto.create({
        name: 'main',
        node: this.nodes,
        initializer: this.initializers,
        input: inputs.map(valueInfo),
        output: outputs.map(valueInfo),
      }),
    })
    return onnx.ModelProto.encode(model).finish()
  }

  private fresh(prefix: string): string {
    let name: string
    do name = `${prefix}_${this.counter++}`
    while (this.names.has(name))
    this.names.add(name)
    return name
  }
}

function attribute(name: string, value: AttributeValue): InstanceType<typeof onnx.AttributeProto> {
  const type = onnx.AttributeProto.AttributeType
  if (typeof value === 'number') return onnx.AttributeProto.create({ name, type: type.INT, i: value })
  if (Array.isArray(value)) return onnx.AttributeProto.create({ name, type: type.INTS, ints: value })
  return onnx.AttributeProto.create({ name, type: type.FLOAT, f: value.float })
}

function valueInfo(io: GraphIo): InstanceType<typeof onnx.ValueInfoProto> {
  return onnx.ValueInfoProto.create({
    name: io.name,
    type: {
      tensorType: {
        elemType: DATA_TYPE[io.type],
        shape: { dim: io.dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) },
      },
    },
  })
}
