import { seededRandom } from '../../worker/util/seeded-random'
import { fillGaussian, mixSeed } from './synthetic-random'
import { DEFAULT_TOPIC_SHAPE, type TopicShape } from './synthetic-history'

/** How synthetic vectors are made, for the report: they are not model output. */
export const SYNTHETIC_VECTOR_SOURCE =
  'synthetic: L2-normalised 512-d mixture of a shared direction (anisotropy), 300 topic and 2,400 subtopic centroids, and per-sentence Gaussian noise; same-subtopic cosine ≈ 0.6, same-topic ≈ 0.45, unrelated ≈ 0.1'

/** Weights of the parts of a vector; chosen so cosines fall where sentence encoders put them (see SYNTHETIC_VECTOR_SOURCE). */
const SHARED_WEIGHT = 0.3
const TOPIC_WEIGHT = 0.55
const SUBTOPIC_WEIGHT = 0.4
const NOISE_WEIGHT = 0.6

/**
 * Realistic stand-ins for sentence embeddings: neighbourhoods are structured (topics, subtopics) like real
 * ones, so nearest-neighbour search and HNSW recall behave as on real data; every vector is a pure function
 * of (seed, item), so the page, the Sift worker and the peers' worker all derive the same vectors.
 */
export class SyntheticVectors {
  private readonly shared: Float32Array
  private readonly topics: Float32Array
  private readonly subtopics: Float32Array
  private readonly noise: Float32Array

  constructor(
    readonly dim = 512,
    readonly shape: TopicShape = DEFAULT_TOPIC_SHAPE,
    private readonly seed = 17,
  ) {
    const random = seededRandom(seed)
    this.shared = unit(fillGaussian(random, new Float32Array(dim)))
    this.topics = unitRows(fillGaussian(random, new Float32Array(shape.topics * dim)), dim)
    this.subtopics = unitRows(fillGaussian(random, new Float32Array(shape.topics * shape.subtopicsPerTopic * dim)), dim)
    this.noise = new Float32Array(dim)
  }

  /** The vector of sentence `index` (of the given topic and subtopic), written into `out`. */
  sentence(index: number, topic: number, subtopic: number, out = new Float32Array(this.dim)): Float32Array {
    return this.mix(mixSeed(this.seed, index), topic, subtopic, out)
  }

  /** The vector of query `index`: drawn like a sentence of its topic, from a separate stream. */
  query(index: number, topic: number, subtopic: number, out = new Float32Array(this.dim)): Float32Array {
    return this.mix(mixSeed(this.seed ^ 0x5bd1e995, index), topic, subtopic, out)
  }

  private mix(seed: number, topic: number, subtopic: number, out: Float32Array): Float32Array {
    const { dim, noise } = this
    unit(fillGaussian(seededRandom(seed), noise))
    const t = topic * dim
    const s = (topic * this.shape.subtopicsPerTopic + subtopic) * dim
    for (let d = 0; d < dim; d++) {
      out[d] =
        SHARED_WEIGHT * this.shared[d] +
        TOPIC_WEIGHT * this.topics[t + d] +
        SUBTOPIC_WEIGHT * this.subtopics[s + d] +
        NOISE_WEIGHT * noise[d]
    }
    return unit(out)
  }
}

function unit(v: Float32Array): Float32Array {
  let sum = 0
  for (let d = 0; d < v.length; d++) sum += v[d] * v[d]
  const scale = 1 / Math.sqrt(sum)
  for (let d = 0; d < v.length; d++) v[d] *= scale
  return v
}

function unitRows(rows: Float32Array, dim: number): Float32Array {
  for (let r = 0; r < rows.length; r += dim) unit(rows.subarray(r, r + dim))
  return rows
}
