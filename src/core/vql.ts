import { FIELD_NAME, isDateTimeText, normaliseDateTime } from './custom-fields.js';
import { errors } from './errors.js';

export const ISSUE_TYPES = ['blur', 'dark', 'bright', 'outliers', 'duplicates'] as const;
export type IssueType = (typeof ISSUE_TYPES)[number];

export const MEDIA_TYPES = ['IMAGE', 'VIDEO_FRAME', 'VIDEO'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

export const VQL_FILTER_KEYS = ['text', 'labels', 'tags', 'issues', 'duplicates', 'uniqueness', 'custom'] as const;

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
export const TEXT_MAX_LENGTH = 500;

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
    f.mediaTypes === null
  );
}

/** Parses `vql` and the plain filter parameters into one normalized filter set; throws 422 on anything invalid. */
export function parseExploreFilters(query: ExploreQuery): ExploreFilters {
  const f = emptyFilters();
  applyVql(f, query.vql);
  applyPlain(f, query);
  return f;
}


type Obj = Record<string, unknown>;

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
      const issue = oneOfValue(b.value, `${path}.value`, ISSUE_TYPES);
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
    default:
      throw errors.validation(`${at} has unknown filter '${key}'; expected one of ${oneOf}`);
  }
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

/** The filter's body, with required `op`/`value` present and no keys outside `allowed`. */
function fields(body: unknown, path: string, allowed: readonly string[]): Obj {
  if (!isObject(body)) throw errors.validation(`${path} must be an object with keys ${allowed.join(', ')}`);
  for (const k of Object.keys(body)) {
    if (!allowed.includes(k)) throw errors.validation(`${path} has unknown key '${k}'; allowed: ${allowed.join(', ')}`);
  }
  for (const k of ['op', 'value']) {
    if (body[k] === undefined) throw errors.validation(`${path}.${k} is required`);
  }
  return body;
}

function oneOfValue<T extends string>(v: unknown, path: string, allowed: readonly T[]): T {
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) {
    throw errors.validation(`${path} must be one of ${allowed.join(', ')}`);
  }
  return v as T;
}

function textValue(v: unknown, path: string): string {
  if (typeof v !== 'string') throw errors.validation(`${path} must be a string`);
  return checkText(v, path);
}

function checkText(v: string, path: string): string {
  const t = v.trim();
  if (t === '') throw errors.validation(`${path} must not be empty`);
  if (t.length > TEXT_MAX_LENGTH) throw errors.validation(`${path} must be at most ${TEXT_MAX_LENGTH} characters`);
  return t;
}

function stringList(v: unknown, path: string, allowSingle: boolean): string[] {
  const list = allowSingle && typeof v === 'string' ? [v] : v;
  const what = allowSingle ? 'a non-empty string or a non-empty array of strings' : 'a non-empty array of strings';
  if (!Array.isArray(list) || list.length === 0) throw errors.validation(`${path} must be ${what}`);
  const out = list.map((item, i) => {
    if (typeof item !== 'string' || item.trim() === '') throw errors.validation(`${path}[${i}] must be a non-empty string`);
    return item.trim();
  });
  return [...new Set(out)];
}

/** A JSON number in [min, max], or (min, max] when `minInclusive` is false. */
function jsonNumber(v: unknown, path: string, min: number, max: number, minInclusive: boolean): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw errors.validation(`${path} must be a number`);
  return inRange(v, path, min, max, minInclusive);
}

function inRange(v: number, path: string, min: number, max: number, minInclusive: boolean): number {
  const ok = (minInclusive ? v >= min : v > min) && v <= max;
  if (!ok) throw errors.validation(`${path} must be in ${minInclusive ? '[' : '('}${min}, ${max}]`);
  return v;
}


function applyPlain(f: ExploreFilters, q: ExploreQuery): void {
  const fileName = optionalString(q.file_name, 'file_name');
  if (fileName !== null) f.fileName = fileName;

  const issueType = optionalString(q.issue_type, 'issue_type');
  if (issueType !== null) f.issues.push({ issue: oneOfValue(issueType, 'issue_type', ISSUE_TYPES), mode: 'in' });

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

/** Absent or blank parameters mean "no filter"; a repeated parameter (an array) is not accepted. */
function optionalString(v: unknown, name: string): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw errors.validation(`${name} must be given once, as a string`);
  return v.trim() === '' ? null : v.trim();
}

function splitList(v: string, name: string): string[] {
  const items = v.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (items.length === 0) throw errors.validation(`${name} must be a comma-separated list with at least one value`);
  return items;
}

const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** A number in [0, 1] from the query string, where it may arrive as text. */
function queryNumber(v: unknown, name: string): number | null {
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw errors.validation(`${name} must be a number`);
    return inRange(v, name, 0, 1, true);
  }
  const s = optionalString(v, name);
  if (s === null) return null;
  if (!NUMERIC.test(s)) throw errors.validation(`${name} must be a number`);
  return inRange(Number(s), name, 0, 1, true);
}

function maxOf(current: number | null, next: number): number {
  return current === null ? next : Math.max(current, next);
}

function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
