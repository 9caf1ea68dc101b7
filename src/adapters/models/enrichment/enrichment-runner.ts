/**
 * Runs the built-in enrichment models in the calling thread. Each model loads on the first request that needs it and
 * is kept; tfjs state is per thread, so a pool runs one runner per worker thread (enrichment-worker-serve.ts).
 */
import { loadCenterNetEmbedder } from '../centernet-embedder.js';
import { type ObjectDetector, loadCenterNetDetector } from './centernet-detector.js';
import { imageStatistics } from './colors.js';
import { DEFAULT_DETECTION_INPUT_SIZE } from './input-sizes.js';
import { type FaceDetector, loadFaceDetector } from './faces.js';
import { composeCaption } from './grounded-captioner.js';
import { cropRgb, decodeInput, scaleBox } from './image-input.js';
import { captionObject } from './object-captioner.js';
import { type OcrEngine, loadOcr } from './ocr.js';
import { type DetectedObject, type EnrichmentType, type ImageEnrichment, type OcrResult, isEnrichmentType } from './types.js';

export interface EnrichmentRunnerOptions {
  /** Side of the embedder's input for object crops: the media embeddings' size, so crops and media compare (default 256). */
  embeddingInputSize?: number;
  /** Side of the detector's input (default DEFAULT_DETECTION_INPUT_SIZE). */
  detectionInputSize?: number;
}

/** Lowest detector score an object needs (CenterNet scores; see centernet-detector.ts for the measurements). */
export const MIN_OBJECT_SCORE = 0.3;

type Lazy<T> = (() => Promise<T>) & { loaded(): Promise<T> | undefined };

/** Memoises a loader; a failed load is retried by the next call. */
function lazy<T>(load: () => Promise<T>): Lazy<T> {
  let pending: Promise<T> | undefined;
  const get = () => {
    pending ??= load().catch((err: unknown) => {
      pending = undefined;
      throw err;
    });
    return pending;
  };
  return Object.assign(get, { loaded: () => pending });
}

export class EnrichmentRunner {
  readonly embeddingInputSize: number;
  readonly detectionInputSize: number;
  /** Selects the tfjs wasm backend for this thread, which every tfjs model here needs first. */
  private readonly backend: Lazy<void>;
  readonly detector: Lazy<ObjectDetector>;
  readonly faces: Lazy<FaceDetector>;
  readonly ocr: Lazy<OcrEngine>;

  constructor(options: EnrichmentRunnerOptions = {}) {
    this.embeddingInputSize = options.embeddingInputSize ?? 256;
    this.detectionInputSize = options.detectionInputSize ?? DEFAULT_DETECTION_INPUT_SIZE;
    // loadCenterNetEmbedder is the one place that sets the wasm paths and backend; its model copy is not needed after
    // (the detector's graph embeds the crops) and is closed, which frees ~40 MB per thread.
    this.backend = lazy(async () => {
      const embedder = await loadCenterNetEmbedder({ inputSize: this.embeddingInputSize });
      await embedder.close();
    });
    this.detector = lazy(async () => {
      await this.backend();
      return loadCenterNetDetector({ inputSize: this.detectionInputSize, minScore: MIN_OBJECT_SCORE });
    });
    this.faces = lazy(async () => {
      await this.backend();
      return loadFaceDetector();
    });
    this.ocr = lazy(() => loadOcr());
  }

  async enrich(bytes: Uint8Array, types: readonly EnrichmentType[], signal?: AbortSignal): Promise<ImageEnrichment> {
    const unknown = types.filter((t) => !isEnrichmentType(t));
    if (unknown.length > 0) throw new RangeError(`unknown enrichment type(s): ${unknown.join(', ')}`);
    const asked = new Set(types);
    const wantObjects = asked.has('OBJECT_DETECTION') || asked.has('CAPTION_OBJECTS');
    const wantCaption = asked.has('CAPTION_IMAGES');
    signal?.throwIfAborted();
    const input = await decodeInput(bytes);
    const { rgb, scale } = input;
    const size = { width: input.width, height: input.height };
    const result: ImageEnrichment = { ...size };

    let detections: Array<{ label: string; score: number; box: DetectedObject['box']; rgbBox: DetectedObject['box'] }> | null = null;
    if (wantObjects || wantCaption) {
      const found = await (await this.detector()).detect(rgb);
      detections = found.map((d) => ({ label: d.label, score: d.score, box: scaleBox(d.box, scale), rgbBox: d.box }));
      signal?.throwIfAborted();
    }

    // OCR: asked for, or read by a captioner (which goes on without it when tesseract cannot load).
    let ocr: OcrResult | null = null;
    const captionOcr = wantCaption || (asked.has('CAPTION_OBJECTS') && (detections?.length ?? 0) > 0);
    if (asked.has('OCR_TEXT')) ocr = await (await this.ocr()).recognize(await input.encoded(), scale);
    else if (captionOcr) ocr = await this.ocr().then(async (engine) => engine.recognize(await input.encoded(), scale), () => null);
    signal?.throwIfAborted();
    if (asked.has('OCR_TEXT') && ocr) result.ocr = ocr;

    let faceCount: number | null = null;
    if (asked.has('FACE_DETECTION') || wantCaption) {
      const detector = asked.has('FACE_DETECTION') ? await this.faces() : await this.faces().catch(() => null);
      if (detector) {
        const faces = (await detector.detect(rgb)).map((f) => ({ score: f.score, box: scaleBox(f.box, scale) }));
        faceCount = faces.length;
        if (asked.has('FACE_DETECTION')) result.faces = faces;
      }
      signal?.throwIfAborted();
    }

    if (wantObjects && detections) {
      const crops = detections.map((d) => cropRgb(rgb, d.rgbBox));
      const embeddings = await (await this.detector()).embedCrops(crops, this.embeddingInputSize, signal);
      result.objects = detections.map((d, i) => {
        const object: DetectedObject = { label: d.label, score: d.score, box: d.box, embedding: Array.from(embeddings[i]!) };
        if (asked.has('CAPTION_OBJECTS')) Object.assign(object, captionObject(d, rgb, scale, size, ocr?.words));
        return object;
      });
      signal?.throwIfAborted();
    }

    if (wantCaption) {
      const { caption, evidence } = composeCaption({
        objects: detections,
        text: ocr ? ocr.text : null,
        faces: faceCount,
        stats: imageStatistics(rgb),
        minScore: MIN_OBJECT_SCORE,
      });
      result.caption = caption;
      result.caption_evidence = evidence;
    }
    return result;
  }

  async close(): Promise<void> {
    // Only what was loaded; face-api keeps its weights in module state for the thread's life.
    const loaded = [this.ocr.loaded(), this.detector.loaded()].filter((p) => p !== undefined);
    for (const s of await Promise.allSettled(loaded)) if (s.status === 'fulfilled') await s.value.close();
  }
}
