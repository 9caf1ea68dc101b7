import type { paths } from '../api/schema.js';

export type EnrichmentModel = paths['/api/v1/enrichment/{dataset_id}/list_models']['get']['responses'][200]['content']['application/json'][number];
export type EnrichmentType = EnrichmentModel['type'];
/** Enrichment type → model id: what enrich_dataset takes, and what a context says was applied. */
export type ModelChoice = Partial<Record<string, string>>;

/** The order the server runs them in (dependencies first), which is also the order the tab lists them. */
const TYPE_ORDER: readonly string[] = ['OBJECT_DETECTION', 'OCR_TEXT', 'FACE_DETECTION', 'CAPTION_OBJECTS', 'CAPTION_IMAGES'];

const TYPE_LABELS: Record<string, string> = {
  OBJECT_DETECTION: 'Object detection',
  OCR_TEXT: 'Text recognition (OCR)',
  FACE_DETECTION: 'Face detection',
  CAPTION_OBJECTS: 'Object captions',
  CAPTION_IMAGES: 'Image captions',
};

export const typeLabel = (type: string) => TYPE_LABELS[type] ?? type;

/** The models grouped by type, in run order; a type the web app does not know yet comes last, as the API names it. */
export function groupByType(models: readonly EnrichmentModel[]): Array<{ type: string; models: EnrichmentModel[] }> {
  const rank = (type: string) => (TYPE_ORDER.includes(type) ? TYPE_ORDER.indexOf(type) : TYPE_ORDER.length);
  const types = [...new Set(models.map((m) => m.type))].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return types.map((type) => ({ type, models: models.filter((m) => m.type === type) }));
}

/** The dependencies of a model that are neither chosen now nor already applied to the dataset. */
export function missingDependencies(model: EnrichmentModel, chosen: ModelChoice, applied: ModelChoice): string[] {
  return (model.dependencies ?? []).filter((dep) => !chosen[dep] && !applied[dep]);
}

/** "needs Object detection first", or "needs Object detection and Face detection first". */
export function dependencyText(dependencies: readonly string[]): string {
  const names = dependencies.map(typeLabel);
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : (names[0] ?? '');
  return `needs ${list} first`;
}

/** Why a model cannot be chosen as things stand, or null when it can. */
export function blockedReason(model: EnrichmentModel, chosen: ModelChoice, applied: ModelChoice): string | null {
  if (model.status !== 'Active') return model.status;
  const missing = missingDependencies(model, chosen, applied);
  return missing.length > 0 ? dependencyText(missing) : null;
}

/**
 * Chooses a model for its type (or none, with `modelId` undefined), then drops every choice whose dependency
 * is no longer chosen or applied, as often as it takes: un-choosing Object detection un-chooses Object captions.
 */
export function choose(models: readonly EnrichmentModel[], chosen: ModelChoice, applied: ModelChoice, type: string, modelId: string | undefined): ModelChoice {
  let next: ModelChoice = { ...chosen, [type]: modelId };
  for (;;) {
    const kept = Object.fromEntries(
      Object.entries(next).filter(([, id]) => {
        const model = models.find((m) => m.id === id);
        return model !== undefined && blockedReason(model, next, applied) === null;
      }),
    );
    if (Object.keys(kept).length === Object.keys(next).filter((k) => next[k]).length) return kept;
    next = kept;
  }
}

/** The body of enrich_dataset, or null while nothing is chosen. */
export function enrichRequest(chosen: ModelChoice): Record<string, string> | null {
  const entries = Object.entries(chosen).filter((e): e is [string, string] => typeof e[1] === 'string');
  return entries.length > 0 ? Object.fromEntries(entries) : null;
}
