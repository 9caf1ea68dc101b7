/** What the enrichment runners return: plain data, safe to post between threads and store as JSON. */
export const ENRICHMENT_TYPES = ['OBJECT_DETECTION', 'CAPTION_OBJECTS', 'CAPTION_IMAGES', 'OCR_TEXT', 'FACE_DETECTION'] as const;
export type EnrichmentType = (typeof ENRICHMENT_TYPES)[number];

/** A rectangle in pixels of the input image (top-left corner, then size). */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface DetectedObject {
  label: string;
  score: number;
  box: Box;
  /** 480-d, L2-normalised: the CenterNet embedder (same model and input size as media embeddings) run on the object's crop. */
  embedding: number[];
  /** CAPTION_OBJECTS */
  caption?: string;
  /** CAPTION_OBJECTS, a plain colour name */
  dominant_color?: string;
  /** CAPTION_OBJECTS, OCR text inside the box when present */
  text?: string;
}

export interface OcrWord {
  text: string;
  confidence: number;
  box: Box;
}

export interface OcrResult {
  text: string;
  /** 0–100, as tesseract reports it. */
  confidence: number;
  words: OcrWord[];
}

export interface FaceResult {
  score: number;
  box: Box;
}

export interface ImageEnrichment {
  width: number;
  height: number;
  /** OBJECT_DETECTION (with CAPTION_OBJECTS fields when asked) */
  objects?: DetectedObject[];
  /** CAPTION_IMAGES */
  caption?: string;
  /** What the caption was composed from (counts, OCR text, faces, brightness, colours…). */
  caption_evidence?: Record<string, unknown>;
  /** OCR_TEXT */
  ocr?: OcrResult;
  /** FACE_DETECTION */
  faces?: FaceResult[];
}

export interface EnrichmentPool {
  /**
   * Input: an encoded image (JPEG/PNG/WebP; the media's preview, ≤ 1024 px). Runs what `types` need (a captioner
   * may run the detector, OCR or faces internally even if not asked) but returns only the asked fields.
   */
  enrich(bytes: Uint8Array, types: readonly EnrichmentType[], signal?: AbortSignal): Promise<ImageEnrichment>;
  close(): Promise<void>;
}

export function isEnrichmentType(value: string): value is EnrichmentType {
  return (ENRICHMENT_TYPES as readonly string[]).includes(value);
}
