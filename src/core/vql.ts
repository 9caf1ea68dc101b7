import { FIELD_NAME, isDateTimeText, normaliseDateTime } from './custom-fields.js';
import { errors } from './errors.js';
import { nulPath } from './nul-strings.js';
import {
  type Obj,
  TEXT_MAX_LENGTH,
  fields,
  oneOfValue,
  textValue,
  checkText,
  stringList,
  jsonNumber,
  inRange,
  optionalString,
  splitList,
  queryNumber,
  maxOf,
  isObject,
} from './vql-values.js';

export { TEXT_MAX_LENGTH };

export const ISSUE_TYPES = [
  'blur',
  'dark',
  'bright',
  'outliers',
  'duplicates',
  'exact_duplicates',
  'odd_aspect_ratio',
  'odd_size',
  'grayscale',
  'low_information',
  'mislabels',
  'class_outliers',
] as const;
export type IssueType = (typeof ISSUE_TYPES)[number];

/** A file that failed to decode has no media to explore: the dataset's issues route lists it with its reason. */
const CORRUPT = 'corrupt files have no media to explore; GET /api/v1/dataset/{dataset_id}/issues lists them with their reasons';

function issueValue(v: unknown, path: string): IssueType {
  if (v === 'corrupt') throw errors.validation(`${path}: ${CORRUPT}`);
  return oneOfValue(v, path, ISSUE_TYPES);
}

export const MEDIA_TYPES = ['IMAGE', 'VIDEO_FRAME', 'VIDEO'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

export const VQL_FILTER_KEYS = ['text', 'labels', 'tags', 'issues', 'duplicates', 'uniqueness', 'custom', 'map'] as const;

export const FIELD_OPS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'between', 'contains', 'exists'] as const;
export type FieldOp = (typeof FIELD_OPS)[number];
export type FieldScalar = string | number | boolean;

/**
 * A custom metadata field condition. Range bounds are numbers or ISO datetimes (normalised to UTC so they
 * compare as stored); `contains` is a substring of a string field or an item of a list field.
 */
export type FieldFilter =
  | { field: string; op: 'eq' | 'ne'; value: FieldScalar }
  | { field: string; op: 'gt' | 'gte' | 'lt' | 'lte'; value: number | string }
  | { field: string; op: 'between'; value: [number, number] | [string, string] }
  | { field: string; op: 'contains'; value: string }
  | { field: string; op: 'exists'; value: boolean };
export const VQL_MAX_FILTERS = 20;

export type TextOp = 'fts' | 'semantic';
export type IssueMode = 'in' | 'out';

export interface TextFilter {
  op: TextOp;
  value: string;
  threshold: number | null;
}

/** The Explore filters from `vql` and the plain query parameters, all AND-ed together. */
export interface ExploreFilters {
  text: TextFilter[];
  /** Each inner array is one filter: the media has at least one of these labels. */
  labels: string[][];
  /** Each inner array is one filter: the media has at least one of these tags. */
  tags: string[][];
  /** Custom metadata conditions, all AND-ed. */
  fields: FieldFilter[];
  issues: Array<{ issue: IssueType; mode: IssueMode }>;
  /** Keep media with a neighbour at cosine similarity >= this (the strictest of all duplicates filters). */
  minDuplicateSimilarity: number | null;
  minUniqueness: number | null;
  maxUniqueness: number | null;
  /** Case-insensitive substring of the file name. */
  fileName: string | null;
  mediaTypes: MediaType[] | null;
  /** Each polygon is one filter: the media's point on the embedding map lies inside it (edges included). */
  mapPolygons: MapPolygon[];
}

export interface ExploreQuery {
  vql?: string;
  file_name?: string;
  issue_type?: string;
  min_uniqueness?: number | string;
  max_uniqueness?: number | string;
  media_type?: string;
  caption?: string;
  textual_similarity_threshold?: number | string;
  labels?: string;
  tags?: string;
}

export function emptyFilters(): ExploreFilters {
  return {
    text: [],
    labels: [],
    tags: [],
    fields: [],
    issues: [],
    minDuplicateSimilarity: null,
    minUniqueness: null,
    maxUniqueness: null,
    fileName: null,
    mediaTypes: null,
    mapPolygons: [],
  };
}

export function isEmptyFilters(f: ExploreFilters): boolean {
  return (
    f.text.length === 0 &&
    f.labels.length === 0 &&
    f.tags.length === 0 &&
    f.fields.length === 0 &&
    f.issues.length === 0 &&
    f.minDuplicateSimilarity === null &&
    f.minUniqueness === null &&
    f.maxUniqueness === null &&
    f.fileName === null &&
    f.mediaTypes === null &&
    f.mapPolygons.length === 0
  );
}

/** Parses `vql` and the plain filter parameters into one normalized filter set; throws 422 on anything invalid. */
export function parseExploreFilters(query: ExploreQuery): ExploreFilters {
  const f = emptyFilters();
  applyVql(f, query.vql);
  applyPlain(f, query);
  return f;
}


function applyVql(f: ExploreFilters, raw: unknown): void {
  const text = optionalString(raw, 'vql');
  if (text === null) return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw errors.validation('vql must be valid JSON: a JSON array of filter objects');
  }
  if (!Array.isArray(parsed)) throw errors.validation('vql must be a JSON array of filter objects');
  // A NUL written as \u0000 only appears once the JSON is parsed: the request's own check cannot see it.
  const nul = nulPath(parsed, 'vql');
  if (nul !== undefined) throw errors.nulInField(nul);
  if (parsed.length > VQL_MAX_FILTERS) {
    throw errors.validation(`vql may hold at most ${VQL_MAX_FILTERS} filters, got ${parsed.length}`);
  }
  parsed.forEach((element, i) => applyElement(f, element, `vql[${i}]`));
}

function applyElement(f: ExploreFilters, element: unknown, at: string): void {
  const oneOf = VQL_FILTER_KEYS.join(', ');
  if (!isObject(element)) throw errors.validation(`${at} must be an object with exactly one key (one of ${oneOf})`);
  const keys = Object.keys(element);
  if (keys.length !== 1) {
    throw errors.validation(`${at} must have exactly one key (one of ${oneOf}), got ${keys.length}`);
  }
  const key = keys[0]!;
  const body = element[key];
  const path = `${at}.${key}`;
  switch (key) {
    case 'text': {
      const b = fields(body, path, ['op', 'value', 'threshold']);
      const op = oneOfValue(b.op, `${path}.op`, ['fts', 'semantic'] as const);
      const value = textValue(b.value, `${path}.value`);
      const threshold = b.threshold === undefined ? null : jsonNumber(b.threshold, `${path}.threshold`, 0, 1, true);
      f.text.push({ op, value, threshold });
      return;
    }
    case 'labels': {
      const b = fields(body, path, ['op', 'value']);
      oneOfValue(b.op, `${path}.op`, ['one_of'] as const);
      f.labels.push(stringList(b.value, `${path}.value`, false));
      return;
    }
    case 'tags': {
      const b = fields(body, path, ['op', 'value']);
      oneOfValue(b.op, `${path}.op`, ['is'] as const);
      f.tags.push(stringList(b.value, `${path}.value`, true));
      return;
    }
    case 'issues': {
      const b = fields(body, path, ['op', 'value', 'mode']);
      oneOfValue(b.op, `${path}.op`, ['issue'] as const);
      const issue = issueValue(b.value, `${path}.value`);
      const mode = b.mode === undefined ? 'in' : oneOfValue(b.mode, `${path}.mode`, ['in', 'out'] as const);
      f.issues.push({ issue, mode });
      return;
    }
    case 'duplicates': {
      const b = fields(body, path, ['op', 'value']);
      oneOfValue(b.op, `${path}.op`, ['duplicates'] as const);
      f.minDuplicateSimilarity = maxOf(f.minDuplicateSimilarity, jsonNumber(b.value, `${path}.value`, 0, 1, false));
      return;
    }
    case 'uniqueness': {
      const b = fields(body, path, ['op', 'value']);
      oneOfValue(b.op, `${path}.op`, ['uniqueness'] as const);
      f.minUniqueness = maxOf(f.minUniqueness, jsonNumber(b.value, `${path}.value`, 0, 1, true));
      return;
    }
    case 'custom': {
      f.fields.push(fieldFilter(body, path));
      return;
    }
    case 'map': {
      const b = fields(body, path, ['op', 'value']);
      oneOfValue(b.op, `${path}.op`, ['within'] as const);
      f.mapPolygons.push(mapPolygon(b.value, `${path}.value`));
      return;
    }
    default:
      throw errors.validation(`${at} has unknown filter '${key}'; expected one of ${oneOf}`);
  }
}

/** A polygon on the embedding map: its vertices in order, the last joined back to the first. */
export type MapPolygon = Array<[number, number]>;
export const MAP_POLYGON_MAX_VERTICES = 1000;

/** Checks a polygon given as [[x, y], …]: 3 to MAP_POLYGON_MAX_VERTICES vertices of two finite numbers each (422 otherwise). */
export function mapPolygon(v: unknown, path: string): MapPolygon {
  if (!Array.isArray(v)) throw errors.validation(`${path} must be an array of [x, y] points`);
  if (v.length < 3) throw errors.validation(`${path} must have at least 3 points, got ${v.length}`);
  if (v.length > MAP_POLYGON_MAX_VERTICES) throw errors.validation(`${path} may have at most ${MAP_POLYGON_MAX_VERTICES} points, got ${v.length}`);
  return v.map((p, i) => {
    if (!Array.isArray(p) || p.length !== 2 || !p.every((c) => typeof c === 'number' && Number.isFinite(c))) {
      throw errors.validation(`${path}[${i}] must be [x, y]: two finite numbers`);
    }
    return [p[0], p[1]] as [number, number];
  });
}

function fieldFilter(body: unknown, path: string): FieldFilter {
  const b = fields(body, path, ['field', 'op', 'value']);
  if (typeof b.field !== 'string' || !FIELD_NAME.test(b.field)) throw errors.validation(`${path}.field must be a custom field name`);
  const field = b.field;
  const op = oneOfValue(b.op, `${path}.op`, FIELD_OPS);
  const at = `${path}.value`;
  switch (op) {
    case 'eq':
    case 'ne': {
      if (typeof b.value === 'boolean' || (typeof b.value === 'number' && Number.isFinite(b.value))) return { field, op, value: b.value };
      if (typeof b.value === 'string') return { field, op, value: normaliseDateTime(b.value.trim()) ?? b.value };
      throw errors.validation(`${at} must be a string, a number or a boolean`);
    }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return { field, op, value: bound(b.value, at) };
    case 'between': {
      if (!Array.isArray(b.value) || b.value.length !== 2) throw errors.validation(`${at} must be [low, high]`);
      const [low, high] = [bound(b.value[0], `${at}[0]`), bound(b.value[1], `${at}[1]`)];
      if (typeof low !== typeof high) throw errors.validation(`${at} must be two numbers or two datetimes`);
      if (low > high) throw errors.validation(`${at}: low must not be greater than high`);
      return { field, op, value: [low, high] as [number, number] | [string, string] };
    }
    case 'contains':
      return { field, op, value: textValue(b.value, at) };
    case 'exists':
      if (typeof b.value !== 'boolean') throw errors.validation(`${at} must be true or false`);
      return { field, op, value: b.value };
  }
}

/** A range bound: a finite number, or an ISO 8601 datetime normalised to UTC. */
function bound(v: unknown, path: string): number | string {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && isDateTimeText(v.trim())) return normaliseDateTime(v.trim())!;
  throw errors.validation(`${path} must be a number or an ISO 8601 datetime`);
}

function applyPlain(f: ExploreFilters, q: ExploreQuery): void {
  const fileName = optionalString(q.file_name, 'file_name');
  if (fileName !== null) f.fileName = fileName;

  const issueType = optionalString(q.issue_type, 'issue_type');
  if (issueType !== null) f.issues.push({ issue: issueValue(issueType, 'issue_type'), mode: 'in' });

  const minU = queryNumber(q.min_uniqueness, 'min_uniqueness');
  const maxU = queryNumber(q.max_uniqueness, 'max_uniqueness');
  if (minU !== null && maxU !== null && minU > maxU) {
    throw errors.validation(`min_uniqueness (${minU}) must not be greater than max_uniqueness (${maxU})`);
  }
  if (minU !== null) f.minUniqueness = maxOf(f.minUniqueness, minU);
  if (maxU !== null) f.maxUniqueness = maxU;

  const mediaType = optionalString(q.media_type, 'media_type');
  if (mediaType !== null) {
    f.mediaTypes = [...new Set(splitList(mediaType, 'media_type').map((m) => oneOfValue(m, 'media_type', MEDIA_TYPES)))];
  }

  const caption = optionalString(q.caption, 'caption');
  const threshold = queryNumber(q.textual_similarity_threshold, 'textual_similarity_threshold');
  if (caption === null && threshold !== null) {
    throw errors.validation('textual_similarity_threshold needs caption: it is the threshold of the semantic caption search');
  }
  if (caption !== null) {
    const value = checkText(caption, 'caption');
    f.text.push(threshold === null ? { op: 'fts', value, threshold: null } : { op: 'semantic', value, threshold });
  }

  const labels = optionalString(q.labels, 'labels');
  if (labels !== null) f.labels.push([...new Set(splitList(labels, 'labels'))]);
  const tags = optionalString(q.tags, 'tags');
  if (tags !== null) f.tags.push([...new Set(splitList(tags, 'tags'))]);
}

