export const ENRICHMENT_TYPES = ['OBJECT_DETECTION', 'CAPTION_OBJECTS', 'CAPTION_IMAGES', 'OCR_TEXT', 'FACE_DETECTION'] as const;
export type EnrichmentType = (typeof ENRICHMENT_TYPES)[number];
export interface Box { x: number; y: number; width: number; height: number }
export interface DetectedObject {
  label: string; score: number; box: Box;
  embedding: number[];
  caption?: string;
  dominant_color?: string;
  text?: string;
}
export interface OcrResult { text: string; confidence: number; words: Array<{ text: string; confidence: number; box: Box }> }
export interface FaceResult { score: number; box: Box }
export interface ImageEnrichment {
  width: number; height: number;
  objects?: DetectedObject[];
  caption?: string;
  caption_evidence?: Record<string, unknown>;
  ocr?: OcrResult;
  faces?: FaceResult[];
}
export interface EnrichmentPool {
  enrich(bytes: Uint8Array, types: readonly EnrichmentType[], signal?: AbortSignal): Promise<ImageEnrichment>;
  close(): Promise<void>;
}
