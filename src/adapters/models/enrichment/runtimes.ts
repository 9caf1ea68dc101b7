import { existsSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_DETECTION_INPUT_SIZE, FACE_INPUT_SIZE } from './input-sizes.js';
import { MODEL_FILES, packageRoot } from './package-paths.js';
import type { EnrichmentType } from './types.js';

type Availability = { available: boolean; reason?: string };

/** Whether every file exists (packages resolve), without loading anything. */
function check(files: () => string[]): Availability {
  try {
    const missing = files().filter((f) => !existsSync(f));
    return missing.length === 0 ? { available: true } : { available: false, reason: `missing ${missing.join(', ')}` };
  } catch (err) {
    return { available: false, reason: err instanceof Error ? err.message : String(err) };
  }
}

function both(a: Availability, b: Availability): Availability {
  if (!a.available) return a;
  return b;
}

const tfjsWasm = () => [path.join(packageRoot('@tensorflow/tfjs-backend-wasm'), 'dist', 'tfjs-backend-wasm-simd.wasm'), path.join(packageRoot('@tensorflow/tfjs'), 'package.json')];
const tesseractCore = () => [path.join(packageRoot('tesseract.js'), 'package.json'), path.join(packageRoot('tesseract.js-core'), 'tesseract-core-simd-lstm.wasm')];

/** Cheap check (files exist, packages resolve, nothing loaded) of which built-in runtimes can run here. */
export function enrichmentRuntimes(): Record<EnrichmentType, Availability> {
  const detection = both(check(tfjsWasm), check(MODEL_FILES.centernet));
  const ocr = both(check(tesseractCore), check(MODEL_FILES.tesseractEng));
  const faces = both(check(tfjsWasm), check(MODEL_FILES.tinyFace));
  return {
    OBJECT_DETECTION: detection,
    // The captioners read OCR and faces when they can and say less when they cannot; the detector they need.
    CAPTION_OBJECTS: detection,
    CAPTION_IMAGES: detection,
    OCR_TEXT: ocr,
    FACE_DETECTION: faces,
  };
}

/** Identity of each built-in model at its default settings, for the model registry. */
export const BUILTIN_MODEL_INFO: Record<EnrichmentType, { name: string; version: string; description: string }> = {
  OBJECT_DETECTION: {
    name: 'CenterNet MobileNetV3 (COCO-80)',
    version: `human-3/centernet@${DEFAULT_DETECTION_INPUT_SIZE}/score0.3-nms0.5/crop-gap@256/v1`,
    description:
      `Finds the 80 COCO object classes (person, dog, bicycle, car…) with boxes and scores: CenterNet with a MobileNetV3 backbone ` +
      `(weights from @vladmandic/human) at ${DEFAULT_DETECTION_INPUT_SIZE}² on CPU, scores ≥ 0.3, non-max suppression. ` +
      'Each object carries a 480-d embedding of its crop (the same model as the media embeddings), used for object clusters.',
  },
  CAPTION_OBJECTS: {
    name: 'Object captioner (measured facts)',
    version: 'grounded-objects/v1',
    description:
      'A short caption per detected object, composed from measurements only: its label and score, its size and position in ' +
      'the image, its dominant colour (a plain colour name from its pixels) and any text OCR read inside its box.',
  },
  CAPTION_IMAGES: {
    name: 'Grounded captioner (template over measurements)',
    version: 'grounded-captioner/v1',
    description:
      'Not a neural image-captioning network: a sentence composed from what the object detector, OCR, face detector and image ' +
      'statistics (brightness, contrast, colour names) actually found, e.g. "A dog, a bicycle and a car, in a mostly gray ' +
      'image". The evidence it was composed from is stored beside the caption; it never names scenes or qualities nothing measured.',
  },
  OCR_TEXT: {
    name: 'Tesseract OCR (English)',
    version: 'tesseract.js-7/eng-4.0.0_best_int/lstm/word-conf70',
    description: 'Reads printed text with tesseract.js (LSTM engine, English best_int data from @tesseract.js-data/eng); keeps words read with confidence ≥ 70.',
  },
  FACE_DETECTION: {
    name: 'TinyFaceDetector',
    version: `face-api-1.7/tiny_face_detector@${FACE_INPUT_SIZE}/score0.5`,
    description: `Finds faces (boxes and scores) with @vladmandic/face-api's TinyFaceDetector at ${FACE_INPUT_SIZE}² on CPU.`,
  },
};
