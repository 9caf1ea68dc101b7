/**
 * Object detection with the CenterNet (MobileNetV3, COCO-80) graph shipped in `@vladmandic/human`, on tfjs-wasm.
 *
 * The converted graph is fully convolutional except for a few int32 constants baked for a 512² input: the head's
 * three upsample sizes (32, 64, 128), the output map's width (128) and the `[H·W, 4]` reshape of the box regressions.
 * They are rewritten in the weight bytes for the chosen input size before loading, so the graph's own decoder
 * (`tower_0/detections`: top-100 peaks as x1, y1, x2, y2, score, class in input pixels) runs at that size.
 */
import * as tf from '@tensorflow/tfjs';
import { preprocess } from '../centernet-embedder.js';
import { CENTERNET_EMBEDDING_NODE, centerNetModelPath, readCenterNetArtifacts } from '../centernet-graph.js';
import { CENTERNET_EMBEDDING_DIMENSIONS } from '../centernet-identity.js';
import { assertRgbImage, l2normalize, type RgbImage } from '../embedder.js';
import { COCO_LABELS } from './coco-labels.js';
import { nonMaxSuppression } from './nms.js';
import { DEFAULT_DETECTION_INPUT_SIZE } from './input-sizes.js';
import type { Box } from './types.js';

const OUTPUT_NODE = 'tower_0/detections';

export interface Detection {
  label: string;
  classId: number;
  score: number;
  box: Box;
}

export interface ObjectDetector {
  readonly inputSize: number;
  detect(rgb: RgbImage): Promise<Detection[]>;
  /**
   * The media embedding of each crop: what CenterNetEmbedder.embed gives at `embeddingSize` (same graph, same
   * preprocessing, backbone only), computed in batches of up to 8, which costs ~30% less per crop on tfjs-wasm.
   */
  embedCrops(crops: readonly RgbImage[], embeddingSize: number, signal?: AbortSignal): Promise<Float32Array[]>;
  close(): Promise<void>;
}

const CROP_BATCH = 8;

export interface CenterNetDetectorOptions {
  /** Side of the square the image is resized to (multiple of 32, default DEFAULT_DETECTION_INPUT_SIZE). */
  inputSize?: number;
  /** Lowest score kept (default 0.3). */
  minScore?: number;
  /** Per-class overlap above which the weaker box is dropped (default 0.5). */
  iouThreshold?: number;
  /**
   * Overlap across classes above which the weaker box is dropped (default 0.7): the graph regresses one box per peak,
   * so one animal often comes out as dog, cow and sheep with the same box.
   */
  crossClassIou?: number;
  /** At most this many objects (default 20). */
  maxDetections?: number;
  modelPath?: string;
}

function bytesPerElement(w: tf.io.WeightsManifestEntry): number {
  const q = w.quantization?.dtype;
  if (q) {
    if (q === 'uint8') return 1;
    if (q === 'uint16' || q === 'float16') return 2;
    throw new Error(`unsupported quantization ${q} for weight ${w.name}`);
  }
  if (w.dtype === 'float32' || w.dtype === 'int32') return 4;
  if (w.dtype === 'bool') return 1;
  throw new Error(`unsupported dtype ${w.dtype} for weight ${w.name}`);
}

/** The int32 constants that pin the head to a 512² input, as values for a `size`² input. */
function sizeConstants(size: number): Record<string, number[]> {
  const map = size / 4;
  return {
    'tower_0/CenternetHead/c5_upsample/up_sampling2d/mul': [size / 16, size / 16],
    'tower_0/CenternetHead/c4_upsample/up_sampling2d_1/mul': [size / 8, size / 8],
    'tower_0/CenternetHead/c3_upsample/up_sampling2d_2/mul': [map, map],
    'tower_0/strided_slice_6': [map],
    'tower_0/BatchGather/concat': [map * map, 4],
  };
}

/** The graph with any batch and input size, and the head's size constants rewritten for `size`. */
function loadArtifacts(modelJsonPath: string, size: number): Promise<tf.io.ModelArtifacts> {
  // Any batch, height and width: the backbone also embeds crops at the media embedding's size (the head is only run at `size`).
  return readCenterNetArtifacts(modelJsonPath, { anyBatch: true, patch: (specs, all) => patchSizeConstants(modelJsonPath, specs, all, size) });
}

function patchSizeConstants(modelJsonPath: string, weightSpecs: tf.io.WeightsManifestEntry[], all: Buffer, size: number): void {
  const patches = sizeConstants(size);
  let offset = 0;
  let patched = 0;
  for (const w of weightSpecs) {
    const count = w.shape.reduce((a, b) => a * b, 1);
    const values = patches[w.name];
    if (values) {
      if (w.dtype !== 'int32' || w.quantization || count !== values.length) throw new Error(`unexpected layout of ${w.name} in ${modelJsonPath}`);
      values.forEach((v, i) => all.writeInt32LE(v, offset + 4 * i));
      patched++;
    }
    offset += count * bytesPerElement(w);
  }
  if (offset !== all.byteLength) throw new Error(`weights of ${modelJsonPath} are ${all.byteLength} bytes, the manifest says ${offset}`);
  if (patched !== Object.keys(patches).length) throw new Error(`${modelJsonPath} is not the CenterNet graph this detector knows`);
}

/**
 * Loads the detector. The tfjs wasm backend must already be selected in this thread (loadCenterNetEmbedder does it;
 * see enrichment-runner.ts): tfjs-backend-wasm allows setWasmPaths only before its first use.
 */
export async function loadCenterNetDetector(options: CenterNetDetectorOptions = {}): Promise<ObjectDetector> {
  const size = options.inputSize ?? DEFAULT_DETECTION_INPUT_SIZE;
  if (!Number.isInteger(size) || size < 64 || size % 32 !== 0) throw new RangeError(`inputSize must be a multiple of 32 from 64, got ${size}`);
  if (tf.getBackend() !== 'wasm') throw new Error('the tfjs wasm backend is not selected in this thread');
  const minScore = options.minScore ?? 0.3;
  const iouThreshold = options.iouThreshold ?? 0.5;
  const crossClassIou = options.crossClassIou ?? 0.7;
  const maxDetections = options.maxDetections ?? 20;
  const modelPath = options.modelPath ?? centerNetModelPath();
  const artifacts = await loadArtifacts(modelPath, size);
  const model = await tf.loadGraphModel({ load: async () => artifacts });
  tf.tidy(() => {
    const out = model.execute(tf.zeros([1, size, size, 3]), OUTPUT_NODE) as tf.Tensor;
    if (out.shape.length !== 3 || out.shape[2] !== 6) throw new Error(`unexpected detection output shape ${out.shape.join('x')}`);
  });
  let closed = false;

  return {
    inputSize: size,
    async detect(rgb: RgbImage): Promise<Detection[]> {
      if (closed) throw new Error('detector is closed');
      assertRgbImage(rgb);
      const out = tf.tidy(() => model.execute(preprocess(rgb, size), OUTPUT_NODE) as tf.Tensor);
      let rows: Float32Array;
      try {
        rows = (await out.data()) as Float32Array;
      } finally {
        out.dispose();
      }
      const sx = rgb.width / size;
      const sy = rgb.height / size;
      const candidates: Detection[] = [];
      for (let i = 0; i + 6 <= rows.length; i += 6) {
        const score = rows[i + 4]!;
        const classId = rows[i + 5]!;
        if (!(score >= minScore) || !Number.isInteger(classId) || !COCO_LABELS[classId]) continue;
        const x1 = Math.max(0, rows[i]! * sx);
        const y1 = Math.max(0, rows[i + 1]! * sy);
        const x2 = Math.min(rgb.width, rows[i + 2]! * sx);
        const y2 = Math.min(rgb.height, rows[i + 3]! * sy);
        if (x2 - x1 < 1 || y2 - y1 < 1) continue;
        const box = { x: Math.round(x1), y: Math.round(y1), width: Math.round(x2 - x1), height: Math.round(y2 - y1) };
        candidates.push({ label: COCO_LABELS[classId]!, classId, score: Math.round(score * 1000) / 1000, box });
      }
      return nonMaxSuppression(candidates, iouThreshold, crossClassIou, maxDetections);
    },
    async embedCrops(crops: readonly RgbImage[], embeddingSize: number, signal?: AbortSignal): Promise<Float32Array[]> {
      if (closed) throw new Error('detector is closed');
      crops.forEach(assertRgbImage);
      const out: Float32Array[] = [];
      for (let start = 0; start < crops.length; start += CROP_BATCH) {
        signal?.throwIfAborted();
        const batch = crops.slice(start, start + CROP_BATCH);
        const pooled = tf.tidy(() => {
          const input = tf.concat(batch.map((c) => preprocess(c, embeddingSize)), 0);
          return tf.mean(model.execute(input, CENTERNET_EMBEDDING_NODE) as tf.Tensor, [1, 2]);
        });
        try {
          const data = (await pooled.data()) as Float32Array;
          for (let i = 0; i < batch.length; i++) {
            out.push(l2normalize(data.slice(i * CENTERNET_EMBEDDING_DIMENSIONS, (i + 1) * CENTERNET_EMBEDDING_DIMENSIONS)));
          }
        } finally {
          pooled.dispose();
        }
      }
      return out;
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      model.dispose();
    },
  };
}
