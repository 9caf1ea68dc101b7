import { loadCenterNetEmbedder } from './centernet-embedder.js';
import { loadCenterNetOnnxEmbedder } from './centernet-onnx-embedder.js';
import type { Embedder } from './embedder.js';

/**
 * The media embedder: the CenterNet backbone on ONNX Runtime (native, ~4× less CPU per image than tfjs-wasm), or on
 * tfjs-wasm where onnxruntime-node has no binary for the platform. Both give the same vectors under the same identity,
 * so a dataset can mix them.
 */
export async function loadImageEmbedder(inputSize: number): Promise<Embedder> {
  return (await onnxRuntimeAvailable()) ? loadCenterNetOnnxEmbedder({ inputSize }) : loadCenterNetEmbedder({ inputSize });
}

let available: Promise<boolean> | undefined;

function onnxRuntimeAvailable(): Promise<boolean> {
  available ??= import('onnxruntime-node').then(
    () => true,
    (err: unknown) => {
      process.emitWarning(`onnxruntime-node cannot load here (${err instanceof Error ? err.message.split('\n')[0] : String(err)}); embedding on tfjs-wasm`);
      return false;
    },
  );
  return available;
}
