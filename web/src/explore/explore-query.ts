/**
 * The Explore page's state, kept in the URL so a view can be shared and Back works:
 * UI state ↔ the page's URL search params ↔ the Explore API's query (and a saved view's query).
 */

export const ISSUES = ['duplicates', 'exact_duplicates', 'outliers', 'blur', 'dark', 'bright', 'grayscale', 'low_information', 'odd_aspect_ratio', 'odd_size', 'mislabels', 'class_outliers'] as const;
export type Issue = (typeof ISSUES)[number];

/** Each issue type in the words the page shows. */
export const ISSUE_WORDS: Record<Issue, string> = {
  duplicates: 'Duplicates',
  exact_duplicates: 'Exact duplicates',
  outliers: 'Outliers',
  blur: 'Blurry',
  dark: 'Dark',
  bright: 'Bright',
  grayscale: 'Grayscale',
  low_information: 'Low information',
  odd_aspect_ratio: 'Odd aspect ratio',
  odd_size: 'Odd size',
  mislabels: 'Mislabels',
  class_outliers: 'Class outliers',
};
export type EntityType = 'IMAGES' | 'OBJECTS';
export type SortBy = 'size' | 'uniqueness' | 'relevance';
export type FieldType = 'number' | 'datetime' | 'string' | 'string_list' | 'boolean';
export type FieldOp = 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte' | 'contains' | 'exists';
export type FieldValue = string | number | boolean;

export interface FieldCondition {
  field: string;
  op: FieldOp;
  value: FieldValue;
}

export interface Anchor {
  id: string;
  type: 'MEDIA' | 'UPLOAD';
  /** The file name shown to the user ("Similar to dog.jpg"). */
  name: string;
}

export interface Filters {
  issues: Issue[];
  /** As typed: the API checks the numbers and says what is wrong. */
  minUniqueness: string;
  maxUniqueness: string;
  labels: string[];
  tags: string[];
  caption: string;
  fileName: string;
  fields: FieldCondition[];
  /** A lasso or rectangle drawn on the Map tab: its vertices [x, y] in map coordinates; null for none. */
  mapPolygon: number[][] | null;
}

export interface ExploreState {
  threshold: number;
  /** 0-based, as the API counts; the URL shows it 1-based. */
  page: number;
  /** null: the API's default (relevance with an anchor, else size). */
  sort: SortBy | null;
  entity: EntityType;
  filters: Filters;
  anchor: Anchor | null;
}

/** The Explore API's query, as the typed client takes it. */
export interface ExploreApiQuery {
  threshold: number;
  entity_type: EntityType;
  page_number: number;
  previews_limit: number;
  anchor_media_id?: string;
  anchor_type?: 'MEDIA' | 'UPLOAD';
  sort_by?: SortBy;
  vql?: string;
  file_name?: string;
  min_uniqueness?: string;
  max_uniqueness?: string;
  caption?: string;
}

export type ViewQuery = Omit<ExploreApiQuery, 'page_number' | 'previews_limit'>;

export const MAX_THRESHOLD = 4;
/** The API's own default: a page of 100 large clusters stays small. */
export const PREVIEWS_LIMIT = 6;
/** The API takes at most 20 vql filters; issues, labels and tags use up to 12. */
export const MAX_FIELD_CONDITIONS = 8;

const SORTS: SortBy[] = ['size', 'uniqueness', 'relevance'];
const FIELD_OPS: FieldOp[] = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'contains', 'exists'];

export function emptyFilters(): Filters {
  return { issues: [], minUniqueness: '', maxUniqueness: '', labels: [], tags: [], caption: '', fileName: '', fields: [], mapPolygon: null };
}

export function defaultState(): ExploreState {
  return { threshold: 0, page: 0, sort: null, entity: 'IMAGES', filters: emptyFilters(), anchor: null };
}

export function hasFilters(f: Filters): boolean {
  return (
    f.issues.length > 0 ||
    f.minUniqueness.trim() !== '' ||
    f.maxUniqueness.trim() !== '' ||
    f.labels.length > 0 ||
    f.tags.length > 0 ||
    f.caption.trim() !== '' ||
    f.fileName.trim() !== '' ||
    f.fields.length > 0 ||
    f.mapPolygon !== null
  );
}

/** The sort the grid is in: the chosen one, or the API's default. */
export function effectiveSort(state: ExploreState): SortBy {
  if (state.sort === 'relevance' && !state.anchor) return 'size';
  return state.sort ?? (state.anchor ? 'relevance' : 'size');
}

/** A change of what is listed starts again at the first page. */
export function withChange(state: ExploreState, change: Partial<Omit<ExploreState, 'page'>>): ExploreState {
  return { ...state, ...change, page: 0 };
}

function intParam(raw: string | null, min: number, max: number, fallback: number): number {
  if (raw === null || !/^\d+$/.test(raw)) return fallback;
  const n = Number(raw);
  return n >= min && n <= max ? n : fallback;
}

/** The map shape of a URL: three or more finite [x, y] pairs, or none. */
function mapPolygon(raw: string | null): number[][] | null {
  if (raw === null) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    const ok = Array.isArray(parsed) && parsed.length >= 3 && parsed.every((v) => Array.isArray(v) && v.length === 2 && v.every((n) => typeof n === 'number' && Number.isFinite(n)));
    return ok ? (parsed as number[][]) : null;
  } catch {
    return null;
  }
}

function fieldCondition(raw: string): FieldCondition | null {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!parsed || typeof parsed !== 'object') return null;
    const { field, op, value } = parsed as Record<string, unknown>;
    if (typeof field !== 'string' || !FIELD_OPS.includes(op as FieldOp)) return null;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return null;
    return { field, op: op as FieldOp, value };
  } catch {
    return null;
  }
}

/** Reads the page's URL; anything malformed (an edited link) falls back to its default. */
export function stateFromParams(params: URLSearchParams): ExploreState {
  const sort = params.get('sort');
  const anchorId = params.get('anchor');
  return {
    threshold: intParam(params.get('threshold'), 0, MAX_THRESHOLD, 0),
    page: intParam(params.get('page'), 1, Number.MAX_SAFE_INTEGER, 1) - 1,
    sort: SORTS.includes(sort as SortBy) ? (sort as SortBy) : null,
    entity: params.get('entity') === 'OBJECTS' ? 'OBJECTS' : 'IMAGES',
    filters: {
      issues: ISSUES.filter((issue) => params.getAll('issue').includes(issue)),
      minUniqueness: params.get('min_uniqueness') ?? '',
      maxUniqueness: params.get('max_uniqueness') ?? '',
      labels: params.getAll('label'),
      tags: params.getAll('tag'),
      caption: params.get('caption') ?? '',
      fileName: params.get('file_name') ?? '',
      fields: params
        .getAll('field')
        .map(fieldCondition)
        .filter((c): c is FieldCondition => c !== null),
      mapPolygon: mapPolygon(params.get('map')),
    },
    anchor: anchorId
      ? { id: anchorId, type: params.get('anchor_type') === 'UPLOAD' ? 'UPLOAD' : 'MEDIA', name: params.get('anchor_name') ?? anchorId }
      : null,
  };
}

/** The page's URL for a state; defaults are left out so a plain link stays plain. */
export function paramsFromState(state: ExploreState): URLSearchParams {
  const p = new URLSearchParams();
  const f = state.filters;
  if (state.threshold !== 0) p.set('threshold', String(state.threshold));
  if (state.page !== 0) p.set('page', String(state.page + 1));
  if (state.sort) p.set('sort', state.sort);
  if (state.entity !== 'IMAGES') p.set('entity', state.entity);
  for (const issue of f.issues) p.append('issue', issue);
  if (f.minUniqueness.trim()) p.set('min_uniqueness', f.minUniqueness.trim());
  if (f.maxUniqueness.trim()) p.set('max_uniqueness', f.maxUniqueness.trim());
  for (const label of f.labels) p.append('label', label);
  for (const tag of f.tags) p.append('tag', tag);
  if (f.caption.trim()) p.set('caption', f.caption.trim());
  if (f.fileName.trim()) p.set('file_name', f.fileName.trim());
  for (const c of f.fields) p.append('field', JSON.stringify(c));
  if (f.mapPolygon) p.set('map', JSON.stringify(f.mapPolygon));
  if (state.anchor) {
    p.set('anchor', state.anchor.id);
    p.set('anchor_type', state.anchor.type);
    p.set('anchor_name', state.anchor.name);
  }
  return p;
}

/** Issues, labels, tags and custom fields as `vql` (lists as JSON arrays: a label may hold a comma). */
export function vqlOf(f: Filters): string | undefined {
  const parts: unknown[] = [
    ...f.issues.map((issue) => ({ issues: { op: 'issue', value: issue } })),
    ...(f.labels.length > 0 ? [{ labels: { op: 'one_of', value: f.labels } }] : []),
    ...(f.tags.length > 0 ? [{ tags: { op: 'is', value: f.tags } }] : []),
    ...f.fields.map((c) => ({ custom: c })),
    ...(f.mapPolygon ? [mapFilter(f.mapPolygon)] : []),
  ];
  return parts.length > 0 ? JSON.stringify(parts) : undefined;
}

/** A shape drawn on the map as the API's vql condition (the selection route answers the same). */
export function mapFilter(polygon: number[][]) {
  return { map: { op: 'within', value: polygon } };
}

/** The Explore page's URL for the media inside a shape drawn on the map. */
export function exploreMapSearch(polygon: number[][]): string {
  return paramsFromState({ ...defaultState(), filters: { ...emptyFilters(), mapPolygon: polygon } }).toString();
}

/** What a saved view stores: the Explore query without its paging. */
export function viewQuery(state: ExploreState): ViewQuery {
  const f = state.filters;
  const q: ViewQuery = { threshold: state.threshold, entity_type: state.entity };
  if (state.anchor) {
    q.anchor_media_id = state.anchor.id;
    q.anchor_type = state.anchor.type;
  }
  if (state.sort && !(state.sort === 'relevance' && !state.anchor)) q.sort_by = state.sort;
  const vql = vqlOf(f);
  if (vql) q.vql = vql;
  if (f.fileName.trim()) q.file_name = f.fileName.trim();
  if (f.minUniqueness.trim()) q.min_uniqueness = f.minUniqueness.trim();
  if (f.maxUniqueness.trim()) q.max_uniqueness = f.maxUniqueness.trim();
  if (f.caption.trim()) q.caption = f.caption.trim();
  return q;
}

export function exploreQuery(state: ExploreState): ExploreApiQuery {
  return { ...viewQuery(state), page_number: state.page, previews_limit: PREVIEWS_LIMIT };
}

export function pageCount(totalClusters: number, perPage: number): number {
  return Math.max(1, Math.ceil(totalClusters / Math.max(1, perPage)));
}

/** The conditions a custom field of this type can take (the API refuses the others with a 422). */
export function opsFor(type: FieldType): FieldOp[] {
  switch (type) {
    case 'number':
    case 'datetime':
      return ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'exists'];
    case 'string':
    case 'string_list':
      return ['eq', 'ne', 'contains', 'exists'];
    case 'boolean':
      return ['eq', 'ne', 'exists'];
  }
}

export const OP_WORDS: Record<FieldOp, string> = {
  eq: '=',
  ne: '≠',
  gt: '>',
  gte: '≥',
  lt: '<',
  lte: '≤',
  contains: 'contains',
  exists: 'exists',
};

/**
 * The typed value of a custom field condition from what the user typed: a number field compares numbers, a
 * datetime field ISO datetimes, booleans and `exists` true/false; anything else as text. Throws a sentence when
 * the text is not of the field's type.
 */
export function fieldValue(type: FieldType, op: FieldOp, raw: string): FieldValue {
  const text = raw.trim();
  if (op === 'exists' || type === 'boolean') {
    if (text !== 'true' && text !== 'false') throw new Error('Choose true or false');
    return text === 'true';
  }
  if (text === '') throw new Error('Enter a value');
  if (type === 'number') {
    const n = Number(text);
    if (!Number.isFinite(n)) throw new Error(`${text} is not a number`);
    return n;
  }
  if (type === 'datetime') {
    const ms = Date.parse(text);
    if (Number.isNaN(ms)) throw new Error(`${text} is not a date and time`);
    return new Date(ms).toISOString();
  }
  return text;
}

export function describeCondition(c: FieldCondition): string {
  return `${c.field} ${OP_WORDS[c.op]} ${String(c.value)}`;
}
