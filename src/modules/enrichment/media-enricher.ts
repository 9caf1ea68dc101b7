import { randomUUID } from 'node:crypto';
import type { StoredObject } from '../../adapters/db/schema.js';
import type { OpenAiCaptioner } from '../../adapters/models/openai-captioner.js';
import type { Box, EnrichmentPool, ImageEnrichment } from '../../adapters/models/enrichment/types.js';
import type { EnrichmentModel } from './enrichment-models.js';
import type { EnrichmentItem, StagedResult } from './enrichment.repo.js';

/** Runs the chosen models on one image and shapes what they found for a version row. */
export class MediaEnricher {
  constructor(
    private readonly builtins: () => EnrichmentPool,
    private readonly openai: OpenAiCaptioner | null,
  ) {}

  async enrich(item: EnrichmentItem, bytes: Uint8Array, models: readonly EnrichmentModel[], signal: AbortSignal): Promise<StagedResult> {
    const builtinTypes = models.filter((m) => m.runner === 'builtin').map((m) => m.type);
    const byo = models.find((m) => m.runner === 'openai');
    const [found, byoCaption] = await Promise.all([
      builtinTypes.length > 0 ? this.builtins().enrich(bytes, builtinTypes, signal) : Promise.resolve(null),
      byo ? this.captionByEndpoint(bytes, item.mime, signal) : Promise.resolve(null),
    ]);
    // Boxes come in the pixels of the image the models saw (the preview); rows keep the media's own.
    const scale = found && item.width ? item.width / found.width : 1;
    const enrichment: Record<string, unknown> = { models: Object.fromEntries(models.map((m) => [m.type, m.id])) };
    if (found?.caption_evidence) enrichment.caption_evidence = found.caption_evidence;
    if (found?.ocr) enrichment.ocr = { ...found.ocr, words: found.ocr.words.map((w) => ({ ...w, box: scaleBox(w.box, scale) })) };
    if (found?.faces) enrichment.faces = found.faces.map((f) => ({ ...f, box: scaleBox(f.box, scale) }));
    return {
      media_id: item.media_id,
      caption: byoCaption ?? found?.caption ?? null,
      objects: found?.objects ? found.objects.map((o) => storedObject(o, scale)) : null,
      enrichment,
    };
  }

  private captionByEndpoint(bytes: Uint8Array, mime: string, signal: AbortSignal): Promise<string> {
    if (!this.openai) throw new Error('no OpenAI-compatible endpoint is configured');
    return this.openai.caption(bytes, mime, signal);
  }
}

function storedObject(o: NonNullable<ImageEnrichment['objects']>[number], scale: number): StoredObject & { embedding?: number[] } {
  const stored: StoredObject & { embedding?: number[] } = {
    object_id: randomUUID(),
    label: o.label,
    score: Math.round(o.score * 1000) / 1000,
    box: scaleBox(o.box, scale),
    embedding: o.embedding,
  };
  if (o.caption !== undefined) stored.caption = o.caption;
  if (o.dominant_color !== undefined) stored.dominant_color = o.dominant_color;
  if (o.text !== undefined) stored.text = o.text;
  return stored;
}

function scaleBox(box: Box, scale: number): Box {
  const r = (v: number) => Math.round(v * scale * 10) / 10;
  return { x: r(box.x), y: r(box.y), width: r(box.width), height: r(box.height) };
}
