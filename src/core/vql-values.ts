import { errors } from './errors.js';

/** The small checks VQL and the plain Explore parameters are read with: each throws a 422 naming the parameter. */

export const TEXT_MAX_LENGTH = 500;

export type Obj = Record<string, unknown>;

/** The filter's body, with required `op`/`value` present and no keys outside `allowed`. */
export function fields(body: unknown, path: string, allowed: readonly string[]): Obj {
  if (!isObject(body)) throw errors.validation(`${path} must be an object with keys ${allowed.join(', ')}`);
  for (const k of Object.keys(body)) {
    if (!allowed.includes(k)) throw errors.validation(`${path} has unknown key '${k}'; allowed: ${allowed.join(', ')}`);
  }
  for (const k of ['op', 'value']) {
    if (body[k] === undefined) throw errors.validation(`${path}.${k} is required`);
  }
  return body;
}

export function oneOfValue<T extends string>(v: unknown, path: string, allowed: readonly T[]): T {
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) {
    throw errors.validation(`${path} must be one of ${allowed.join(', ')}`);
  }
  return v as T;
}

export function textValue(v: unknown, path: string): string {
  if (typeof v !== 'string') throw errors.validation(`${path} must be a string`);
  return checkText(v, path);
}

export function checkText(v: string, path: string): string {
  const t = v.trim();
  if (t === '') throw errors.validation(`${path} must not be empty`);
  if (t.length > TEXT_MAX_LENGTH) throw errors.validation(`${path} must be at most ${TEXT_MAX_LENGTH} characters`);
  return t;
}

export function stringList(v: unknown, path: string, allowSingle: boolean): string[] {
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
export function jsonNumber(v: unknown, path: string, min: number, max: number, minInclusive: boolean): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw errors.validation(`${path} must be a number`);
  return inRange(v, path, min, max, minInclusive);
}

export function inRange(v: number, path: string, min: number, max: number, minInclusive: boolean): number {
  const ok = (minInclusive ? v >= min : v > min) && v <= max;
  if (!ok) throw errors.validation(`${path} must be in ${minInclusive ? '[' : '('}${min}, ${max}]`);
  return v;
}

/** Absent or blank parameters mean "no filter"; a repeated parameter (an array) is not accepted. */
export function optionalString(v: unknown, name: string): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw errors.validation(`${name} must be given once, as a string`);
  return v.trim() === '' ? null : v.trim();
}

export function splitList(v: string, name: string): string[] {
  const items = v.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (items.length === 0) throw errors.validation(`${name} must be a comma-separated list with at least one value`);
  return items;
}

const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** A number in [0, 1] from the query string, where it may arrive as text. */
export function queryNumber(v: unknown, name: string): number | null {
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw errors.validation(`${name} must be a number`);
    return inRange(v, name, 0, 1, true);
  }
  const s = optionalString(v, name);
  if (s === null) return null;
  if (!NUMERIC.test(s)) throw errors.validation(`${name} must be a number`);
  return inRange(Number(s), name, 0, 1, true);
}

export function maxOf(current: number | null, next: number): number {
  return current === null ? next : Math.max(current, next);
}

export function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
