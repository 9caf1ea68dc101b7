/**
 * The CenterNet embedder (centernet-embedder.ts) on ONNX Runtime's native CPU kernels: the same graph and weights,
 * converted at load (onnx/tf-graph-to-onnx.ts), the same input (square-input.ts), so the vectors are the tfjs path's
 * to within float rounding (max difference ~2e-7 on the fixtures) and keep its identity. One intra-op thread: the
 * image pool runs one embedder per worker, and a session's own thread pool would only compete with the others.
 */
import type { InferenceSession } from 'onnxruntime-node';
import { CENTERNET_EMBEDDING_NODE, CENTERNET_INPUT_NODE, centerNetModelPath, readCenterNetArtifacts } from './centernet-graph.js';
import { CENTERNET_EMBEDDING_DIMENSIONS, centerNetIdentity, centerNetInputSize } from './centernet-identity.js';
import { type Embedder, embedderOf } from './embedder.js';
import { ONNX_INPUT, ONNX_OUTPUT, tfGraphToOnnx } from './onnx/tf-graph-to-onnx.js';
import { squareInput } from './square-input.js';

export interface CenterNetOnnxEmbedderOptions {
  /** Side of the square input (default 256; multiple of 32). */
  inputSize?: number;
  /** Override for the model.json path (default: `@vladmandic/human/models/centernet.json`). */
  modelPath?: string;
}

export async function loadCenterNetOnnxEmbedder(options: CenterNetOnnxEmbedderOptions = {}): Promise<Embedder> {
  const inputSize = centerNetInputSize(options.inputSize);
  const ort = await import('onnxruntime-node');
  const artifacts = await readCenterNetArtifacts(options.modelPath ?? centerNetModelPath());
  const model = tfGraphToOnnx(artifacts, { input: CENTERNET_INPUT_NODE, inputChannels: 3, output: CENTERNET_EMBEDDING_NODE, outputChannels: CENTERNET_EMBEDDING_DIMENSIONS });
  const session: InferenceSession = await ort.InferenceSession.create(model, {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
  const identity = centerNetIdentity(inputSize);
  const run = async (input: Float32Array): Promise<Float32Array> => {
    const out = await session.run({ [ONNX_INPUT]: new ort.Tensor('float32', input, [1, inputSize, inputSize, 3]) });
    const features = out[ONNX_OUTPUT]!.data as Float32Array;
    if (features.length !== CENTERNET_EMBEDDING_DIMENSIONS) throw new Error(`unexpected embedding width ${features.length} from ${CENTERNET_EMBEDDING_NODE}`);
    return Float32Array.from(features);
  };
  await run(new Float32Array(inputSize * inputSize * 3)); // warm-up: the first run plans memory and picks kernels
  return embedderOf(
    { name: identity.model, version: identity.version, runtime: 'onnxruntime', dimensions: CENTERNET_EMBEDDING_DIMENSIONS, inputSize },
    (rgb) => run(squareInput(rgb, inputSize)),
    () => session.release(),
  );
}
