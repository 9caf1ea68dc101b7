/**
 * The CenterNet (MobileNetV3 backbone, COCO-80) graph model that ships inside `@vladmandic/human`, read from disk as a
 * tfjs graph (model.json and weight shards). Both runtimes start here: tfjs-wasm loads these artifacts as they are,
 * the ONNX Runtime path converts them (onnx/tf-graph-to-onnx.ts). Only tfjs's types are imported, so reading the
 * graph does not load tfjs.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { io } from '@tensorflow/tfjs';
import { packageRoot } from './package-root.js';

export const CENTERNET_EMBEDDING_NODE = 'tower_0/extern1/hard_swish/mul_1';
export const CENTERNET_INPUT_NODE = 'tower_0/images';

export function centerNetModelPath(): string {
  return path.join(packageRoot('@vladmandic/human'), 'models', 'centernet.json');
}

interface GraphJson {
  format?: string;
  generatedBy?: string;
  convertedBy?: string;
  signature?: { inputs?: Record<string, { tensorShape?: { dim?: { size: string }[] } }> };
  modelTopology: { node: { name: string; op: string; attr?: { shape?: { shape?: { dim?: { size: string }[] } } } }[] };
  weightsManifest: { paths: string[]; weights: io.WeightsManifestEntry[] }[];
}

export interface GraphReadOptions {
  /** Leave the batch size free too (the converted graph pins it at 1). */
  anyBatch?: boolean;
  /** Rewrites weight bytes in place before they are handed over (`weights` is every shard, in manifest order). */
  patch?: (specs: io.WeightsManifestEntry[], weights: Buffer) => void;
}

/**
 * Reads the CenterNet graph's model.json and weight shards from disk, with the input placeholder's height and
 * width made dynamic (the converted graph pins them at 512).
 */
export async function readCenterNetArtifacts(modelJsonPath: string, options: GraphReadOptions = {}): Promise<io.ModelArtifacts> {
  const json = JSON.parse(await readFile(modelJsonPath, 'utf8')) as GraphJson;
  const relax = (dims: { size: string }[] | undefined): void => {
    if (dims && dims.length === 4) {
      if (options.anyBatch) dims[0] = { size: '-1' };
      dims[1] = { size: '-1' };
      dims[2] = { size: '-1' };
    }
  };
  for (const node of json.modelTopology.node) {
    if (node.op === 'Placeholder' && node.name === CENTERNET_INPUT_NODE) relax(node.attr?.shape?.shape?.dim);
  }
  relax(json.signature?.inputs?.[CENTERNET_INPUT_NODE]?.tensorShape?.dim);
  const dir = path.dirname(modelJsonPath);
  const weightSpecs: io.WeightsManifestEntry[] = [];
  const shards: Buffer[] = [];
  for (const group of json.weightsManifest) {
    weightSpecs.push(...group.weights);
    for (const p of group.paths) shards.push(await readFile(path.join(dir, p)));
  }
  const all = Buffer.concat(shards);
  options.patch?.(weightSpecs, all);
  return {
    modelTopology: json.modelTopology as unknown as io.ModelArtifacts['modelTopology'],
    weightSpecs,
    weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) as ArrayBuffer,
    format: json.format,
    generatedBy: json.generatedBy,
    convertedBy: json.convertedBy,
    signature: json.signature as object,
  };
}
