/** Custom metadata fields: names, types, how a file's values are read and checked. Pure, no I/O. */

export const FIELD_TYPES = ['string', 'number', 'boolean', 'datetime', 'string_list'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
export type FieldTypes = Record<string, FieldType>;

/** The columns that name the media a row is about, in the order they are looked for. */
export const KEY_COLUMNS = ['media_id', 'file_name'] as const;
export type KeyColumn = (typeof KEY_COLUMNS)[number];

/** Field names become export columns (`custom_<name>`) and VQL field references: kept plain. */
export const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
export const MAX_FIELDS = 200;
export const MAX_STRING_LENGTH = 10_000;
export const MAX_LIST_ITEMS = 1_000;
/** Rows read before the type of every column is fixed (and the request answered). */
export const SAMPLE_ROWS = 1_000;

export const TAG_MAX_LENGTH = 100;
export const LABEL_MAX_LENGTH = 200;

const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)?)?$/;
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

export const isDateTimeText = (text: string): boolean => ISO_DATETIME.test(text) && !Number.isNaN(Date.parse(text));

/** A datetime as stored: ISO 8601 in UTC with milliseconds, so text order is time order. */
export function normaliseDateTime(text: string): string | null {
  if (!isDateTimeText(text)) return null;
  return new Date(text.length === 10 ? `${text}T00:00:00Z` : text.replace(' ', 'T')).toISOString();
}

/** The type a JSON (or Parquet) value has natively; null for null. Strings that read as ISO datetimes are datetimes. */
export function nativeType(value: unknown): FieldType | 'invalid' | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number' || typeof value === 'bigint') return 'number';
  if (value instanceof Date) return 'datetime';
  if (typeof value === 'string') return isDateTimeText(value) ? 'datetime' : 'string';
  if (Array.isArray(value)) return value.every((v) => typeof v === 'string') ? 'string_list' : 'invalid';
  return 'invalid';
}

/** The narrowest type a CSV cell fits: boolean, number, datetime, a JSON list of strings, else string. */
export function textType(cell: string): FieldType {
  const t = cell.trim();
  if (t === 'true' || t === 'false') return 'boolean';
  if (NUMBER.test(t)) return 'number';
  if (isDateTimeText(t)) return 'datetime';
  if (t.startsWith('[') && t.endsWith(']')) {
    try {
      const parsed: unknown = JSON.parse(t);
      if (Array.isArray(parsed) && parsed.every((v) => typeof v === 'string')) return 'string_list';
    } catch {
      // not a list: a plain string
    }
  }
  return 'string';
}

/** What a column of CSV cells is: the one type all its sampled cells fit, else string (text holds anything). */
export function widenTextType(a: FieldType | undefined, b: FieldType): FieldType {
  if (a === undefined || a === b) return b;
  return 'string';
}

export type Coerced = { ok: true; value: unknown } | { ok: false; reason: string };

/**
 * A value read as `type`: from CSV text (`fromText`) or a native JSON/Parquet value. null means "not
 * given": the media keeps whatever it had for the field.
 */
export function coerce(raw: unknown, type: FieldType, fromText: boolean): Coerced {
  if (raw === null || raw === undefined || (fromText && typeof raw === 'string' && raw.trim() === '')) return { ok: true, value: null };
  const bad = (what: string): Coerced => ({ ok: false, reason: `${describe(raw)} is not ${what}` });
  switch (type) {
    case 'string': {
      const text = typeof raw === 'string' ? raw : fromText ? String(raw) : null;
      if (text === null) return bad('a string');
      return text.length > MAX_STRING_LENGTH ? { ok: false, reason: `longer than ${MAX_STRING_LENGTH} characters` } : { ok: true, value: text };
    }
    case 'number': {
      if (typeof raw === 'bigint') return { ok: true, value: Number(raw) };
      if (typeof raw === 'number') return Number.isFinite(raw) ? { ok: true, value: raw } : bad('a finite number');
      if (fromText && typeof raw === 'string' && NUMBER.test(raw.trim())) return { ok: true, value: Number(raw.trim()) };
      return bad('a number');
    }
    case 'boolean': {
      if (typeof raw === 'boolean') return { ok: true, value: raw };
      if (fromText && typeof raw === 'string' && ['true', 'false'].includes(raw.trim())) return { ok: true, value: raw.trim() === 'true' };
      return bad('a boolean (true or false)');
    }
    case 'datetime': {
      if (raw instanceof Date) return Number.isNaN(raw.getTime()) ? bad('a datetime') : { ok: true, value: raw.toISOString() };
      const iso = typeof raw === 'string' ? normaliseDateTime(raw.trim()) : null;
      return iso === null ? bad('an ISO 8601 datetime') : { ok: true, value: iso };
    }
    case 'string_list': {
      let list: unknown = raw;
      if (fromText && typeof raw === 'string') {
        try {
          list = JSON.parse(raw);
        } catch {
          return bad('a JSON list of strings');
        }
      }
      if (!Array.isArray(list) || !list.every((v) => typeof v === 'string')) return bad('a list of strings');
      return list.length > MAX_LIST_ITEMS ? { ok: false, reason: `more than ${MAX_LIST_ITEMS} items` } : { ok: true, value: list };
    }
  }
}

function describe(raw: unknown): string {
  const text = typeof raw === 'string' ? JSON.stringify(raw) : Array.isArray(raw) ? 'a list' : String(raw);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/** The key column of a header: media_id first, else file_name; null when neither is there. */
export function keyColumnOf(columns: readonly string[]): KeyColumn | null {
  return KEY_COLUMNS.find((k) => columns.includes(k)) ?? null;
}

/** Why a header cannot be imported, or null: no key column, bad or repeated names, too many fields. */
export function headerProblem(columns: readonly string[]): string | null {
  const key = keyColumnOf(columns);
  if (!key) return `the file has no key column: name one column media_id or file_name (found: ${columns.slice(0, 20).join(', ') || 'none'})`;
  const fields = columns.filter((c) => !(KEY_COLUMNS as readonly string[]).includes(c));
  const seen = new Set<string>();
  for (const name of columns) {
    if (seen.has(name)) return `column '${name}' appears twice`;
    seen.add(name);
  }
  const bad = fields.find((f) => !FIELD_NAME.test(f));
  if (bad !== undefined) return `column name '${bad.slice(0, 80)}' is not a valid field name (letters, digits and _, starting with a letter or _, at most 63)`;
  if (fields.length === 0) return 'the file has a key column but no field columns';
  if (fields.length > MAX_FIELDS) return `the file has ${fields.length} field columns; at most ${MAX_FIELDS} are allowed`;
  return null;
}

/** The fields whose type in the file differs from the type the dataset already gives them. */
export function typeConflicts(existing: FieldTypes, incoming: FieldTypes): string[] {
  return Object.entries(incoming)
    .filter(([name, type]) => existing[name] !== undefined && existing[name] !== type)
    .map(([name, type]) => `field '${name}' is ${existing[name]} in this dataset but ${type} in the file`);
}

/** A tag or label as stored: trimmed, non-empty, bounded; null when it cannot be one. */
export function cleanAnnotation(value: string, max: number): string | null {
  const t = value.trim();
  return t === '' || t.length > max ? null : t;
}

export type FieldPlan = { ok: true; key: KeyColumn; types: FieldTypes } | { ok: false; problem: string };

const isGiven = (v: unknown, fromText: boolean) => v !== null && v !== undefined && !(fromText && typeof v === 'string' && v.trim() === '');

/**
 * Fixes the key column and every field's type from the header and a sample of rows: text cells take the
 * narrowest type all of them fit, native values must agree (a datetime among strings makes a string), and a
 * field the dataset already has keeps its type when the sample fits it. Anything else is a problem (400).
 */
export function planFields(columns: readonly string[], sample: ReadonlyArray<Record<string, unknown>>, fromText: boolean, existing: FieldTypes): FieldPlan {
  const header = headerProblem(columns);
  if (header) return { ok: false, problem: header };
  const key = keyColumnOf(columns)!;
  const types: FieldTypes = {};
  const problems: string[] = [];
  for (const field of columns.filter((c) => !(KEY_COLUMNS as readonly string[]).includes(c))) {
    const values = sample.map((row) => row[field]).filter((v) => isGiven(v, fromText));
    let inferred: FieldType | undefined;
    for (const value of values) {
      const type = fromText ? textType(String(value)) : nativeType(value);
      if (type === 'invalid' || type === null) {
        problems.push(`column '${field}' holds a value that is not a string, number, boolean, datetime or list of strings`);
        break;
      }
      if (fromText || inferred === undefined) inferred = fromText ? widenTextType(inferred, type) : type;
      else if (inferred !== type) {
        const pair = [inferred, type].sort().join(',');
        if (pair === 'datetime,string') inferred = 'string';
        else {
          problems.push(`type conflict: column '${field}' holds both ${inferred} and ${type} values`);
          break;
        }
      }
    }
    const known = existing[field];
    if (known && known !== inferred && values.length > 0 && !values.every((v) => coerce(v, known, fromText).ok)) {
      problems.push(...typeConflicts(existing, { [field]: inferred ?? 'string' }));
    }
    types[field] = known ?? inferred ?? 'string';
  }
  if (problems.length > 0) return { ok: false, problem: problems.slice(0, 5).join('; ') };
  return { ok: true, key, types };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type ReadRow = { ok: true; key: string; fields: Record<string, unknown> } | { ok: false; reason: string };

/** One row checked against the plan: its key and its given field values, or why the whole row is rejected. */
export function readRow(values: Record<string, unknown>, key: KeyColumn, types: FieldTypes, fromText: boolean): ReadRow {
  const raw = values[key];
  const keyText = typeof raw === 'string' || typeof raw === 'number' ? String(raw).trim() : '';
  if (keyText === '') return { ok: false, reason: `empty ${key}` };
  if (key === 'media_id' && !UUID.test(keyText)) return { ok: false, reason: `media_id '${keyText.slice(0, 60)}' is not a UUID` };
  // A CSV row has exactly the header's columns; only JSON lines may bring columns the sample did not.
  if (!fromText) for (const column of Object.keys(values)) {
    if (!(column in types) && !(KEY_COLUMNS as readonly string[]).includes(column) && isGiven(values[column], fromText)) {
      return { ok: false, reason: `column '${column.slice(0, 60)}' is not one of the file's fields (the first ${SAMPLE_ROWS} rows name them)` };
    }
  }
  const fields: Record<string, unknown> = {};
  for (const [field, type] of Object.entries(types)) {
    const result = coerce(values[field], type, fromText);
    if (!result.ok) return { ok: false, reason: `field '${field}': ${result.reason}` };
    if (result.value !== null) fields[field] = result.value;
  }
  return { ok: true, key: key === 'media_id' ? keyText.toLowerCase() : keyText, fields };
}
