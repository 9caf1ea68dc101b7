import { describe, expect, it } from 'vitest';
import { ENRICHMENT_TYPES, type EnrichmentType } from '../../src/adapters/models/enrichment/types.js';
import { modelCatalogue, openaiModel, resolveRequest } from '../../src/modules/enrichment/enrichment-models.js';

const allAvailable = Object.fromEntries(ENRICHMENT_TYPES.map((t) => [t, { available: true }])) as Record<EnrichmentType, { available: boolean }>;
const withoutOcr = { ...allAvailable, OCR_TEXT: { available: false, reason: 'no traineddata' } };

describe('the model catalogue', () => {
  it('lists a built-in whose runtime is missing as Coming Soon, and adds configured endpoints', () => {
    const models = modelCatalogue(withoutOcr, [openaiModel('llava:7b', 'localhost:11434')]);
    expect(models.find((m) => m.type === 'OCR_TEXT')?.status).toBe('Coming Soon');
    expect(models.find((m) => m.id === 'vl_object_detector_v00')?.status).toBe('Active');
    expect(models.at(-1)).toMatchObject({ id: 'openai_compatible_llava_7b', type: 'CAPTION_IMAGES', status: 'Active', runner: 'openai' });
  });
});

describe('resolveRequest (spec 4.4: Active models only, dependencies first)', () => {
  const catalogue = modelCatalogue(withoutOcr, []);

  it('returns the models in dependency order', () => {
    const models = resolveRequest(catalogue, { CAPTION_OBJECTS: 'vl_object_captioner_v00', CAPTION_IMAGES: 'vl_image_captioner_v00', OBJECT_DETECTION: 'vl_object_detector_v00' }, {});
    expect(models.map((m) => m.type)).toEqual(['OBJECT_DETECTION', 'CAPTION_OBJECTS', 'CAPTION_IMAGES']);
  });

  it('accepts a dependency the source already carries', () => {
    expect(resolveRequest(catalogue, { CAPTION_OBJECTS: 'vl_object_captioner_v00' }, { OBJECT_DETECTION: 'vl_object_detector_v00' })).toHaveLength(1);
  });

  it('refuses, with 422 and a detail naming the problem', () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'enrichment_models must map at least one enrichment type to a model id'],
      [{ TRANSLATE: 'x' }, "Unknown enrichment type 'TRANSLATE'; the types are OBJECT_DETECTION, CAPTION_OBJECTS, CAPTION_IMAGES, OCR_TEXT, FACE_DETECTION"],
      [{ CAPTION_IMAGES: 'nope' }, "Unknown enrichment model 'nope'; list the models with GET /api/v1/enrichment/{dataset_id}/list_models"],
      [{ CAPTION_IMAGES: 'vl_object_detector_v00' }, "Model 'vl_object_detector_v00' is a OBJECT_DETECTION model and cannot be applied as CAPTION_IMAGES"],
      [{ OCR_TEXT: 'vl_ocr_text_v00' }, "Model 'vl_ocr_text_v00' is not Active (Coming Soon) and cannot be applied"],
      [{ CAPTION_OBJECTS: 'vl_object_captioner_v00' }, 'CAPTION_OBJECTS depends on OBJECT_DETECTION: apply OBJECT_DETECTION first or in the same request'],
    ];
    for (const [requested, detail] of cases) {
      expect(() => resolveRequest(catalogue, requested, {}), JSON.stringify(requested)).toThrow(expect.objectContaining({ status: 422, detail }));
    }
  });
});
