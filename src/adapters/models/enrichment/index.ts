/** Built-in enrichment models (object detection, captions, OCR, faces) as pure adapters running on worker threads. */
export { ENRICHMENT_TYPES, isEnrichmentType } from './types.js';
export type { Box, DetectedObject, EnrichmentPool, EnrichmentType, FaceResult, ImageEnrichment, OcrResult, OcrWord } from './types.js';
export { createEnrichmentPool, type EnrichmentPoolOptions } from './enrichment-pool.js';
export { BUILTIN_MODEL_INFO, enrichmentRuntimes } from './runtimes.js';
export { EnrichmentImageError } from './image-input.js';
export { DEFAULT_DETECTION_INPUT_SIZE } from './input-sizes.js';
