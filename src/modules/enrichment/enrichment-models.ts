import { BUILTIN_MODEL_INFO } from '../../adapters/models/enrichment/runtimes.js';
import { ENRICHMENT_TYPES, type EnrichmentType, isEnrichmentType } from '../../adapters/models/enrichment/types.js';
import { errors } from '../../core/errors.js';

export type ModelStatus = 'Active' | 'Coming Soon';

/** Spec 2.5, plus how the worker runs it. */
export interface EnrichmentModel {
  id: string;
  name: string;
  type: EnrichmentType;
  status: ModelStatus;
  vendor: string;
  description: string;
  dependencies: EnrichmentType[] | null;
  runner: 'builtin' | 'openai';
}

export type RuntimeAvailability = Record<EnrichmentType, { available: boolean; reason?: string }>;

/** The order models run in: every dependency before what depends on it. */
export const RUN_ORDER: readonly EnrichmentType[] = ['OBJECT_DETECTION', 'OCR_TEXT', 'FACE_DETECTION', 'CAPTION_OBJECTS', 'CAPTION_IMAGES'];

/** The built-ins (names and descriptions from the runners themselves); the first three ids are the ones documented client scripts hard-code. */
const BUILTINS: ReadonlyArray<Pick<EnrichmentModel, 'id' | 'type' | 'vendor' | 'dependencies'>> = [
  { id: 'vl_object_detector_v00', type: 'OBJECT_DETECTION', vendor: 'Loupe (CenterNet MobileNetV3 weights from @vladmandic/human)', dependencies: null },
  { id: 'vl_object_captioner_v00', type: 'CAPTION_OBJECTS', vendor: 'Loupe', dependencies: ['OBJECT_DETECTION'] },
  { id: 'vl_image_captioner_v00', type: 'CAPTION_IMAGES', vendor: 'Loupe', dependencies: null },
  { id: 'vl_ocr_text_v00', type: 'OCR_TEXT', vendor: 'Loupe (tesseract.js with @tesseract.js-data/eng)', dependencies: null },
  { id: 'vl_face_detector_v00', type: 'FACE_DETECTION', vendor: 'Loupe (TinyFaceDetector weights from @vladmandic/face-api)', dependencies: null },
];

/** An OpenAI-compatible endpoint's model as the listing shows it (its host, never its key). */
export function openaiModel(model: string, host: string): EnrichmentModel {
  return {
    id: `openai_compatible_${model.replace(/[^A-Za-z0-9_.-]+/g, '_')}`,
    name: `${model} (OpenAI-compatible endpoint)`,
    type: 'CAPTION_IMAGES',
    status: 'Active',
    vendor: `Bring your own model: ${host}`,
    description: `Sends each image (preview size) to ${model} at ${host} and stores its answer as the caption.`,
    dependencies: null,
    runner: 'openai',
  };
}

/** Every model this server knows: a built-in whose runtime or weights are missing is listed as Coming Soon. */
export function modelCatalogue(runtimes: RuntimeAvailability, extra: readonly EnrichmentModel[]): EnrichmentModel[] {
  const builtins = BUILTINS.map(
    (m): EnrichmentModel => ({
      ...m,
      name: BUILTIN_MODEL_INFO[m.type].name,
      description: BUILTIN_MODEL_INFO[m.type].description,
      status: runtimes[m.type].available ? 'Active' : 'Coming Soon',
      runner: 'builtin',
    }),
  );
  return [...builtins, ...extra];
}

/**
 * Checks an enrich_dataset request against the catalogue (spec 4.4: only Active models, dependencies
 * first) and returns the models in the order they run. `applied` is what the source already carries.
 */
export function resolveRequest(
  catalogue: readonly EnrichmentModel[],
  requested: Record<string, string>,
  applied: Record<string, string>,
): EnrichmentModel[] {
  const entries = Object.entries(requested);
  if (entries.length === 0) throw errors.noEnrichmentModels();
  const models = entries.map(([type, id]) => {
    if (!isEnrichmentType(type)) throw errors.unknownEnrichmentType(type, ENRICHMENT_TYPES);
    const model = catalogue.find((m) => m.id === id);
    if (!model) throw errors.unknownEnrichmentModel(id);
    if (model.type !== type) throw errors.enrichmentModelTypeMismatch(id, model.type, type);
    if (model.status !== 'Active') throw errors.enrichmentModelInactive(id, model.status);
    return model;
  });
  for (const model of models) {
    for (const dependency of model.dependencies ?? []) {
      if (!(dependency in requested) && !(dependency in applied)) throw errors.enrichmentDependencyMissing(model.type, dependency);
    }
  }
  return models.sort((a, b) => RUN_ORDER.indexOf(a.type) - RUN_ORDER.indexOf(b.type));
}
