import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

type Schema = Record<string, unknown>;
const doc = JSON.parse(fs.readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string; schema?: Schema }>; requestBody?: { content: Record<string, { schema?: Schema }> } }>>;
  components: { schemas: Record<string, Schema> };
};

/** Where a numeric schema under `schema` lacks a minimum or a maximum. */
function unbounded(schema: Schema | undefined, at: string, seen = new Set<string>()): string[] {
  if (!schema || typeof schema !== 'object') return [];
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').pop()!;
    if (seen.has(name)) return [];
    return unbounded(doc.components.schemas[name], at, new Set([...seen, name]));
  }
  const types = ([] as unknown[]).concat(schema.type);
  const own = (types.includes('integer') || types.includes('number')) && (schema.minimum === undefined || schema.maximum === undefined) ? [at] : [];
  const props = Object.entries((schema.properties ?? {}) as Record<string, Schema>).flatMap(([k, v]) => unbounded(v, `${at}.${k}`, seen));
  const items = ['items', 'additionalProperties', 'anyOf', 'oneOf', 'allOf'].flatMap((k) =>
    ([] as unknown[]).concat(schema[k] ?? []).flatMap((v, i) => unbounded(v as Schema, `${at}.${k}[${i}]`, seen)),
  );
  return [...own, ...props, ...items];
}

describe('numeric request parameters', () => {
  // AJV runs with strictNumbers off (src/app.ts): a coerced 1e999 or Infinity is stopped only by a bound.
  it('every integer or number a request takes (path, query, header, body) has a minimum and a maximum', () => {
    const missing = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).flatMap(([method, op]) => [
        ...(op.parameters ?? []).flatMap((p) => unbounded(p.schema, `${method.toUpperCase()} ${path} ${p.in} ${p.name}`)),
        ...Object.entries(op.requestBody?.content ?? {}).flatMap(([type, c]) => unbounded(c.schema, `${method.toUpperCase()} ${path} body (${type})`)),
      ]),
    );
    expect(missing).toEqual([]);
  });
});
