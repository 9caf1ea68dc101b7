/**
 * Face detection with `@vladmandic/face-api`'s TinyFaceDetector, weights from its model/ folder. Its node-wasm build
 * requires `@tensorflow/tfjs` and `@tensorflow/tfjs-backend-wasm` from node_modules, so in one thread it shares the
 * tfjs engine and wasm backend that the CenterNet models run on (measured: same engine, backend 'wasm'); it must be
 * loaded after that backend is selected.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { assertRgbImage, type RgbImage } from '../embedder.js';
import { FACE_INPUT_SIZE } from './input-sizes.js';
import { packageRoot } from './package-paths.js';
import type { FaceResult } from './types.js';

const require = createRequire(import.meta.url);

export const MIN_FACE_SCORE = 0.5;

export interface FaceDetector {
  detect(rgb: RgbImage): Promise<FaceResult[]>;
}

interface FaceApiBox {
  x: number;
  y: number;
  width: number;
  height: number;
}
interface FaceApi {
  nets: { tinyFaceDetector: { loadFromDisk(dir: string): Promise<void> } };
  TinyFaceDetectorOptions: new (options: { inputSize: number; scoreThreshold: number }) => object;
  detectAllFaces(input: tf.Tensor3D, options: object): Promise<Array<{ score: number; box: FaceApiBox }>>;
}

export async function loadFaceDetector(): Promise<FaceDetector> {
  if (tf.getBackend() !== 'wasm') throw new Error('the tfjs wasm backend is not selected in this thread');
  const faceapi = require('@vladmandic/face-api/dist/face-api.node-wasm.js') as FaceApi;
  await faceapi.nets.tinyFaceDetector.loadFromDisk(path.join(packageRoot('@vladmandic/face-api'), 'model'));
  const options = new faceapi.TinyFaceDetectorOptions({ inputSize: FACE_INPUT_SIZE, scoreThreshold: MIN_FACE_SCORE });
  return {
    async detect(rgb: RgbImage): Promise<FaceResult[]> {
      assertRgbImage(rgb);
      const input = tf.tensor3d(rgb.data, [rgb.height, rgb.width, 3], 'int32');
      try {
        const found = await faceapi.detectAllFaces(input, options);
        return found.map((f) => ({
          score: Math.round(f.score * 1000) / 1000,
          box: { x: Math.round(f.box.x), y: Math.round(f.box.y), width: Math.round(f.box.width), height: Math.round(f.box.height) },
        }));
      } finally {
        input.dispose();
      }
    },
  };
}
