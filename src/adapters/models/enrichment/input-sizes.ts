// The models' input sides, apart from the models: the API names them in model versions without loading tfjs.

/**
 * Smallest size that finds the fixtures' objects at score ≥ 0.3, measured on dog.jpg and edits of it (resized to 60%
 * and to 1024 px, mirrored, JPEG q50): at 352² the dog scores 0.35–0.39 and the bicycle 0.34–0.37; at 320² the dog
 * falls to 0.22–0.26, and at 384² the mirrored copy's bicycle to 0.29. One thread on fixture photos (quiet machine):
 * 256² ~58 ms, 320² ~70 ms, 384² ~94 ms, 512² ~190 ms; 352² took 107 ms on 200 ~1024 px photos with the machine busy.
 */
export const DEFAULT_DETECTION_INPUT_SIZE = 352;

/** TinyFaceDetector input side (multiple of 32; face-api's default). */
export const FACE_INPUT_SIZE = 416;
