import path from 'node:path';
import { centerNetModelPath } from '../centernet-graph.js';
import { packageRoot } from '../package-root.js';

export { packageRoot };

/** Files the built-in runtimes read; `enrichmentRuntimes` only checks that they exist. */
export const MODEL_FILES = {
  centernet: () => [centerNetModelPath(), path.join(path.dirname(centerNetModelPath()), 'centernet.bin')],
  tinyFace: () => [
    path.join(packageRoot('@vladmandic/face-api'), 'model', 'tiny_face_detector_model-weights_manifest.json'),
    path.join(packageRoot('@vladmandic/face-api'), 'model', 'tiny_face_detector_model.bin'),
  ],
  tesseractEng: () => [path.join(packageRoot('@tesseract.js-data/eng'), '4.0.0_best_int', 'eng.traineddata.gz')],
};
