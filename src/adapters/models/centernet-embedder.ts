/**
 * Image embedder built on the CenterNet (MobileNetV3 backbone, COCO-80) graph model that ships inside
 * `@vladmandic/human`, run on `@tensorflow/tfjs` with the WebAssembly backend (fully offline: the wasm
 * binaries and the weights are read from node_modules with `fs`, nothing is fetched).
 *
 * The embedding is the backbone's last feature map (`tower_0/extern1/hard_swish/mul_1`, 480 channels),
 * global-average-pooled over height and width and L2-normalised.
 *
 * Input: float32 RGB in [0, 255], no mean/std normalisation. That is what human feeds this model:
 * `src/image/image.ts` only casts the pixels to float32 (`tf.cast(pixels, 'float32')`, no division),
 * and `src/object/centernet.ts` only resizes (`tf.image.resizeBilinear`) before `model.execute`.
 */
import path from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { setThreadsCount, setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { CENTERNET_EMBEDDING_NODE, centerNetModelPath, readCenterNetArtifacts } from './centernet-graph.js';
import { CENTERNET_EMBEDDING_DIMENSIONS, centerNetIdentity, centerNetInputSize } from './centernet-identity.js';
import { packageRoot } from './package-root.js';
import { type Embedder, type RgbImage, embedderOf } from './embedder.js';

export interface CenterNetEmbedderOptions {
  /** Side of the square the image is resized to before inference (default 256; multiple of 32). */
  inputSize?: number;
  /**
   * WebAssembly threads (default 1). Only read on the first load in a process (the backend is global), and
   * only effective where tfjs detects multithreaded wasm support; under Node 20 it does not (measured:
   * `WASM_HAS_MULTITHREAD_SUPPORT` is false, `getThreadsCount()` stays 1), so run one embedder per worker
   * process/thread for parallelism instead.
   */
  threads?: number;
  /** Override for the model.json path (default: `@vladmandic/human/models/centernet.json`). */
  modelPath?: string;
}

let backendReady: Promise<void> | undefined;

/** Selects the wasm backend once per process, with its binaries loaded from the local package. */
function initBackend(threads: number): Promise<void> {
  backendReady ??= (async () => {
    const wasmDist = path.join(packageRoot('@tensorflow/tfjs-backend-wasm'), 'dist') + path.sep;
    setWasmPaths(wasmDist);
    // Threaded wasm needs worker support that Node's emscripten glue does not reliably give; use the
    // single-threaded SIMD build unless more threads were asked for.
    if (threads > 1) setThreadsCount(threads);
    else tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
    const ok = await tf.setBackend('wasm');
    if (!ok) throw new Error('tfjs wasm backend failed to initialise');
    await tf.ready();
  })().catch((err: unknown) => {
    backendReady = undefined;
    throw err;
  });
  return backendReady;
}

/**
 * Turns raw RGB into a [1, size, size, 3] float32 tensor in [0, 255] (box pre-shrink, then bilinear). The object
 * detector embeds its crops through this too, so crop embeddings match media embeddings.
 */
export function preprocess(rgb: RgbImage, size: number): tf.Tensor4D {
  const pixels = tf.tensor3d(rgb.data, [rgb.height, rgb.width, 3], 'int32');
  let img: tf.Tensor4D = tf.expandDims(tf.cast(pixels, 'float32'), 0) as tf.Tensor4D;
  // Bilinear resize without antialiasing aliases badly on large downscales; average whole blocks first
  // so the final bilinear step shrinks by less than 2x.
  const factor = Math.floor(Math.min(rgb.height, rgb.width) / size);
  if (factor >= 2) img = tf.avgPool(img, factor, factor, 'valid');
  if (img.shape[1] !== size || img.shape[2] !== size) {
    img = tf.image.resizeBilinear(img, [size, size], false, true);
  }
  return img;
}

export async function loadCenterNetEmbedder(options: CenterNetEmbedderOptions = {}): Promise<Embedder> {
  const inputSize = centerNetInputSize(options.inputSize);
  const threads = Math.max(1, Math.floor(options.threads ?? 1));
  await initBackend(threads);

  const modelPath = options.modelPath ?? centerNetModelPath();
  const artifacts = await readCenterNetArtifacts(modelPath);
  const model = await tf.loadGraphModel({ load: async () => artifacts });

  // Warm-up: the first execution compiles kernels and allocates; do it at load time.
  tf.tidy(() => {
    const out = model.execute(tf.zeros([1, inputSize, inputSize, 3]), CENTERNET_EMBEDDING_NODE) as tf.Tensor;
    const channels = out.shape[out.shape.length - 1];
    if (channels !== CENTERNET_EMBEDDING_DIMENSIONS) {
      throw new Error(`unexpected embedding width ${channels} from ${CENTERNET_EMBEDDING_NODE}`);
    }
  });

  const identity = centerNetIdentity(inputSize);
  return embedderOf(
    { name: identity.model, version: identity.version, runtime: 'tfjs-wasm', dimensions: CENTERNET_EMBEDDING_DIMENSIONS, inputSize },
    async (rgb) => {
      const pooled = tf.tidy(() => {
        const features = model.execute(preprocess(rgb, inputSize), CENTERNET_EMBEDDING_NODE) as tf.Tensor;
        // [1, H, W, C] -> [C]; already pooled outputs ([1, C]) pass through.
        return features.rank === 4 ? tf.mean(features, [0, 1, 2]) : tf.reshape(features, [-1]);
      });
      try {
        return Float32Array.from((await pooled.data()) as Float32Array);
      } finally {
        pooled.dispose();
      }
    },
    () => model.dispose(),
  );
}
