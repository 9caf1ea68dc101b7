import { describe, expect, it } from 'vitest';
import { type EnrichmentModel, blockedReason, choose, dependencyText, enrichRequest, groupByType, missingDependencies } from '../../web/src/enrichment/enrichment-plan.js';

const model = (id: string, type: EnrichmentModel['type'], dependencies: EnrichmentModel['type'][] | null = null, status: EnrichmentModel['status'] = 'Active'): EnrichmentModel => ({
  id,
  name: id,
  type,
  status,
  vendor: 'Loupe',
  description: '',
  dependencies,
});
const detector = model('det', 'OBJECT_DETECTION');
const objectCaptions = model('objcap', 'CAPTION_OBJECTS', ['OBJECT_DETECTION']);
const imageCaptions = model('imgcap', 'CAPTION_IMAGES');
const byo = model('byo', 'CAPTION_IMAGES');
const ocr = model('ocr', 'OCR_TEXT', null, 'Coming Soon');
const MODELS = [objectCaptions, imageCaptions, detector, ocr, byo];

describe('enrichment plan', () => {
  it('groups the models by type in run order, dependencies first', () => {
    expect(groupByType(MODELS).map((g) => [g.type, g.models.map((m) => m.id)])).toEqual([
      ['OBJECT_DETECTION', ['det']],
      ['OCR_TEXT', ['ocr']],
      ['CAPTION_OBJECTS', ['objcap']],
      ['CAPTION_IMAGES', ['imgcap', 'byo']],
    ]);
  });

  it('explains a missing dependency in words, and none once it is chosen or already applied', () => {
    expect(missingDependencies(objectCaptions, {}, {})).toEqual(['OBJECT_DETECTION']);
    expect(blockedReason(objectCaptions, {}, {})).toBe('needs Object detection first');
    expect(blockedReason(objectCaptions, { OBJECT_DETECTION: 'det' }, {})).toBeNull();
    expect(blockedReason(objectCaptions, {}, { OBJECT_DETECTION: 'det' })).toBeNull();
    expect(dependencyText(['OBJECT_DETECTION', 'OCR_TEXT', 'FACE_DETECTION'])).toBe('needs Object detection, Text recognition (OCR) and Face detection first');
  });

  it('never lets a Coming Soon model be chosen', () => {
    expect(blockedReason(ocr, {}, {})).toBe('Coming Soon');
    expect(choose(MODELS, {}, {}, 'OCR_TEXT', 'ocr')).toEqual({});
  });

  it('refuses a model whose dependency is missing, and drops it when its dependency is un-chosen', () => {
    expect(choose(MODELS, {}, {}, 'CAPTION_OBJECTS', 'objcap')).toEqual({});
    const both = choose(MODELS, choose(MODELS, {}, {}, 'OBJECT_DETECTION', 'det'), {}, 'CAPTION_OBJECTS', 'objcap');
    expect(both).toEqual({ OBJECT_DETECTION: 'det', CAPTION_OBJECTS: 'objcap' });
    expect(choose(MODELS, both, {}, 'OBJECT_DETECTION', undefined)).toEqual({});
    // Already applied to the source: the dependent may be chosen alone.
    expect(choose(MODELS, {}, { OBJECT_DETECTION: 'det' }, 'CAPTION_OBJECTS', 'objcap')).toEqual({ CAPTION_OBJECTS: 'objcap' });
  });

  it('one model per type: choosing another replaces it', () => {
    const first = choose(MODELS, {}, {}, 'CAPTION_IMAGES', 'imgcap');
    expect(choose(MODELS, first, {}, 'CAPTION_IMAGES', 'byo')).toEqual({ CAPTION_IMAGES: 'byo' });
  });

  it('builds the request body, or null when nothing is chosen', () => {
    expect(enrichRequest({})).toBeNull();
    expect(enrichRequest({ CAPTION_IMAGES: 'byo', OBJECT_DETECTION: undefined })).toEqual({ CAPTION_IMAGES: 'byo' });
  });
});
