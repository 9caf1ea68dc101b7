import fc from 'fast-check';

/** The part of JSON Schema the server's document uses (TypeBox output after @fastify/swagger). */
export interface Schema {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  nullable?: boolean;
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema: Schema;
}

export interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  /** The request body's schema by content type. */
  body: Record<string, Schema>;
}

/** A file part, kept as plain data so that fast-check can print and shrink it. */
export interface FilePart {
  file: string;
  bytes: 'photo' | 'junk' | 'empty';
}

export type BodySpec =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'form'; fields: Array<[string, string]> }
  | { kind: 'multipart'; fields: Array<[string, string | FilePart]> }
  /** Bytes as they are, under any content type: bad JSON, deep nesting, JSON labelled as text. */
  | { kind: 'raw'; contentType: string; text: string };

export type Auth = 'owner' | 'viewer' | 'none' | 'garbage';

export interface FuzzRequest {
  auth: Auth;
  method: string;
  /** The path with its parameters in place, percent-encoded. */
  path: string;
  query: Array<[string, string]>;
  body: BodySpec;
}

/** Values of the test user's own objects, by the name of the parameter or field that takes them (items of `media_ids` under `media_ids`). */
export type RealValues = Record<string, readonly unknown[]>;

const SQL = ["'; drop table media; --", "' OR '1'='1", '1; SELECT pg_sleep(10)--', '" OR 1=1 --', "x') UNION SELECT * FROM users--", '%', '_', '\\'];
const MARKUP = ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', '${jndi:ldap://x}', '{{7*7}}', '../../../../etc/passwd', '..%2f..%2fetc%2fpasswd'];
const CONTROL = ['\u0000', '\u0001', '\u0008', '\t', '\n', '\r\n', '\u001b[31m', '\u001f', '\u007f', '\u0085', '\u202e', '\u2066', '\ufeff', '\ud800', '\udfff', '\uffff'];
const NUMERIC = ['', ' ', '-1', '-0', '0x10', '1.5', '1e999', '-1e999', '1e308', 'Infinity', 'NaN', '99999999999999999999999', '9007199254740993', 'null', 'true', '[]', '{}'];
const LONG = ['a'.repeat(101), 'a'.repeat(501), 'é'.repeat(1_025), 'x'.repeat(5_000), '😀'.repeat(300)];

/** Strings an attacker sends: SQL, markup, control characters, lone surrogates, numbers that are not, long and random unicode. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...SQL, ...MARKUP, ...NUMERIC),
  fc.constantFrom(...CONTROL).chain((c) => fc.tuple(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 })).map(([a, b]) => `${a}${c}${b}`)),
  fc.constantFrom(...LONG),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), maxLength: 20 }),
);

/** A value of any JSON type, nested a little. */
const anyJson: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 3 });

/** JSON nested `depth` deep, as text (a value that deep cannot be stringified on every engine). */
export const deepJson = (depth: number) => `${'{"a":['.repeat(depth)}1${']}'.repeat(depth)}`;

const typesOf = (schema: Schema): string[] => (Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []);

/** What a value of the schema looks like when it is right: enums, formats, bounds, required fields; real ids where the name takes one. */
export function validValue(schema: Schema, name: string, real: RealValues): fc.Arbitrary<unknown> {
  const own = real[name];
  const values = fc.constant(null).chain(() => plainValid(schema, name, real));
  if (own?.length && !typesOf(schema).includes('array') && !typesOf(schema).includes('object')) return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...own) }, { weight: 1, arbitrary: values });
  return values;
}

function plainValid(schema: Schema, name: string, real: RealValues): fc.Arbitrary<unknown> {
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return fc.oneof(...options.map((s) => validValue(s, name, real)));
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const type = typesOf(schema).find((t) => t !== 'null') ?? 'string';
  switch (type) {
    case 'integer': {
      const min = schema.minimum ?? -(2 ** 31);
      const max = schema.maximum ?? 2 ** 31 - 1;
      return fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max));
    }
    case 'number': {
      const min = schema.minimum ?? -1e6;
      const max = schema.maximum ?? 1e6;
      return fc.oneof(fc.double({ min, max, noNaN: true, noDefaultInfinity: true }), fc.constantFrom(min, max));
    }
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const items = schema.items ?? {};
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 4, 4));
      return fc.array(validValue(items, name, real), { minLength, maxLength });
    }
    case 'object': {
      const properties = schema.properties ?? {};
      const record = Object.fromEntries(Object.entries(properties).map(([key, prop]) => [key, validValue(prop, key, real)]));
      return fc.record(record, { requiredKeys: (schema.required ?? []).filter((key) => key in properties) });
    }
    default:
      return validString(schema, name);
  }
}

function validString(schema: Schema, name: string): fc.Arbitrary<unknown> {
  switch (schema.format) {
    case 'uuid':
      return fc.uuid();
    case 'email':
      return fc.emailAddress();
    case 'date-time':
      return fc.date({ noInvalidDate: true, min: new Date(0), max: new Date('2100-01-01') }).map((d) => d.toISOString());
    case 'date':
      return fc.date({ noInvalidDate: true, min: new Date(0), max: new Date('2100-01-01') }).map((d) => d.toISOString().slice(0, 10));
    case 'binary':
      return filePart;
  }
  if (name === 'vql') return vql;
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 30, 30));
  const edge = schema.maxLength !== undefined ? [fc.constant('x'.repeat(schema.maxLength))] : [];
  return fc.oneof(fc.string({ minLength, maxLength }), ...edge);
}

const filePart: fc.Arbitrary<FilePart> = fc.record({
  file: fc.oneof(fc.constantFrom('photo.jpg', 'photo.png', 'meta.csv', 'a.zip', '../../evil.jpg', 'x'.repeat(300)), hostileString),
  bytes: fc.constantFrom('photo', 'junk', 'empty'),
});

/** VQL as the description of the parameter has it: a JSON array of AND-ed filters, ops right or wrong. */
const vql: fc.Arbitrary<string> = fc
  .array(
    fc.dictionary(
      fc.constantFrom('text', 'labels', 'tags', 'issues', 'duplicates', 'uniqueness', 'custom', 'nonsense'),
      fc.record(
        {
          op: fc.constantFrom('fts', 'semantic', 'one_of', 'is', 'eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'between', 'contains', 'exists', 'drop'),
          value: fc.oneof(hostileString, fc.array(hostileString, { maxLength: 3 }), fc.double(), fc.tuple(fc.double(), fc.double()), anyJson),
          field: fc.oneof(fc.constantFrom('mood', 'score'), hostileString),
        },
        { requiredKeys: ['op'] },
      ),
      { maxKeys: 2 },
    ),
    { maxLength: 3 },
  )
  .map((filters) => JSON.stringify(filters));

/** A value the schema refuses, or that tests its edges: wrong types, out of bounds, hostile strings, deep or huge. */
export function hostileValue(schema: Schema): fc.Arbitrary<unknown> {
  const wrongType = fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(anyJson, { maxLength: 3 }), fc.object({ maxDepth: 1 }));
  const outOfBounds: unknown[] = [];
  if (schema.minimum !== undefined) outOfBounds.push(schema.minimum - 1, schema.minimum - 0.5);
  if (schema.maximum !== undefined) outOfBounds.push(schema.maximum + 1, schema.maximum * 10 + 1);
  if (schema.maxLength !== undefined) outOfBounds.push('y'.repeat(schema.maxLength + 1));
  if (schema.maxItems !== undefined) outOfBounds.push(Array.from({ length: schema.maxItems + 1 }, (_, i) => `item-${i}`));
  outOfBounds.push(1e308, -1e308, 2 ** 53 + 1, -(2 ** 31) - 1, 0.1, []);
  return fc.oneof(hostileString, wrongType, fc.constantFrom(...outOfBounds), fc.array(hostileString, { maxLength: 5 }));
}

/** Mostly right, sometimes hostile: the right ones reach deep code, the hostile ones test the edges. */
export function fuzzValue(schema: Schema, name: string, real: RealValues): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 3, arbitrary: validValue(schema, name, real) }, { weight: 1, arbitrary: hostileValue(schema) });
}

/** Query and form values are text: arrays repeat the field, objects travel as JSON. */
function asText(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap((v) => (typeof v === 'object' && v !== null ? [JSON.stringify(v)] : [String(v)]));
  if (typeof value === 'object' && value !== null) return [JSON.stringify(value)];
  return [String(value)];
}

/** Percent-encodes a path segment; a lone surrogate (which encodeURIComponent refuses) becomes the bytes of its UTF-8 form. */
export function encodeSegment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return [...value].map((c) => (/[\ud800-\udfff]/.test(c) ? '%ED%A0%80' : encodeURIComponent(c))).join('');
  }
}

/** Fields of an object schema as (name, value) pairs, required ones mostly present, unknown ones now and then. */
function fieldsOf(schema: Schema, real: RealValues): fc.Arbitrary<Array<[string, unknown]>> {
  const properties = schema.properties ?? {};
  const record = Object.fromEntries(Object.entries(properties).map(([key, prop]) => [key, fuzzValue(prop, key, real)]));
  const required = (schema.required ?? []).filter((key) => key in properties);
  const fields = fc.oneof({ weight: 4, arbitrary: fc.record(record, { requiredKeys: required }) }, { weight: 1, arbitrary: fc.record(record, { requiredKeys: [] }) });
  const extra = fc.oneof({ weight: 4, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: fc.dictionary(hostileString, anyJson, { maxKeys: 3 }) });
  return fc.tuple(fields, extra).map(([known, unknown]) => [...Object.entries(unknown), ...Object.entries(known)]);
}

function bodyOf(operation: Operation, real: RealValues): fc.Arbitrary<BodySpec> {
  const choices: Array<fc.WeightedArbitrary<BodySpec>> = [];
  for (const [type, schema] of Object.entries(operation.body)) {
    if (type === 'application/json') {
      const value = fc.oneof(
        { weight: 4, arbitrary: fieldsOf(schema, real).map((fields) => Object.fromEntries(fields)) },
        { weight: 1, arbitrary: hostileValue(schema) },
      );
      choices.push({ weight: 4, arbitrary: value.map((v) => ({ kind: 'json' as const, value: v })) });
    } else if (type === 'application/x-www-form-urlencoded') {
      const fields = fieldsOf(schema, real).map((pairs) => pairs.flatMap(([key, value]) => asText(value).map((text) => [key, text] as [string, string])));
      choices.push({ weight: 2, arbitrary: fields.map((f) => ({ kind: 'form' as const, fields: f })) });
    } else if (type === 'multipart/form-data') {
      const fields = fieldsOf(schema, real).map((pairs) =>
        pairs.flatMap(([key, value]): Array<[string, string | FilePart]> => {
          const parts = Array.isArray(value) ? value : [value];
          return parts.map((part) => [key, isFilePart(part) ? part : asText(part).join(',')]);
        }),
      );
      choices.push({ weight: 4, arbitrary: fields.map((f) => ({ kind: 'multipart' as const, fields: f })) });
    }
  }
  const raw = fc.record({
    contentType: fc.constantFrom('application/json', 'text/plain', 'application/xml', 'multipart/form-data', 'multipart/form-data; boundary=B', 'application/x-www-form-urlencoded'),
    text: fc.oneof(fc.constantFrom('', '{', '{"a":', 'null', '[]', '"text"', '--B\r\n', deepJson(2_000)), fc.json({ maxDepth: 2 }), hostileString),
  });
  choices.push({ weight: choices.length ? 1 : 1, arbitrary: raw.map((r) => ({ kind: 'raw' as const, ...r })) });
  if (!Object.keys(operation.body).length) choices.push({ weight: 6, arbitrary: fc.constant({ kind: 'none' as const }) });
  return fc.oneof(...choices);
}

const isFilePart = (value: unknown): value is FilePart => typeof value === 'object' && value !== null && 'bytes' in value && 'file' in value;

/** Requests for one operation: its path, query and body from its schemas, sent mostly as the owner. */
export function requestsFor(operation: Operation, real: RealValues): fc.Arbitrary<FuzzRequest> {
  const pathParams = operation.parameters.filter((p) => p.in === 'path');
  const queryParams = operation.parameters.filter((p) => p.in === 'query');
  const segments = fc.tuple(
    ...pathParams.map((p) =>
      fc
        .oneof(
          { weight: 6, arbitrary: validValue(p.schema, p.name, real) },
          { weight: 1, arbitrary: hostileString },
          { weight: 1, arbitrary: fc.constantFrom('0', '-1', '1e999', 'null', '..', '%', 'a/b') },
        )
        .map((v) => [p.name, String(v)] as const),
    ),
  );
  const query = fc.tuple(
    ...queryParams.map((p) => {
      const present = p.required ? fuzzValue(p.schema, p.name, real) : fc.option(fuzzValue(p.schema, p.name, real), { nil: undefined, freq: 2 });
      return present.map((value) => (value === undefined ? [] : asText(value).map((text) => [p.name, text] as [string, string])));
    }),
  );
  const extraQuery = fc.oneof({ weight: 5, arbitrary: fc.constant([] as Array<[string, string]>) }, { weight: 1, arbitrary: fc.array(fc.tuple(hostileString, hostileString), { maxLength: 2 }) });
  const duplicate = fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) });
  // fetch cannot send a body with a GET.
  const body = operation.method === 'GET' ? fc.constant<BodySpec>({ kind: 'none' }) : bodyOf(operation, real);
  const auth = fc.constantFrom<Auth>('owner', 'owner', 'owner', 'owner', 'owner', 'owner', 'viewer', 'none', 'garbage');
  return fc.record({ auth, segments, query, extraQuery, duplicate, body }).map(({ auth, segments, query, extraQuery, duplicate, body }) => {
    const values = new Map(segments);
    const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => (name === '*' ? 'some/page' : encodeSegment(values.get(name) ?? '')));
    const pairs = [...query.flat(), ...extraQuery];
    // A parameter given twice: Fastify hands the route an array where it declared one value.
    if (duplicate && pairs.length) pairs.push(pairs[0]!);
    return { auth, method: operation.method, path, query: pairs, body };
  });
}

/** Every operation of an OpenAPI document. */
export function operationsOf(document: { paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: Schema }> } }>> }): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const body = Object.fromEntries(Object.entries(op.requestBody?.content ?? {}).map(([type, { schema }]) => [type, schema]));
      operations.push({ method: method.toUpperCase(), path, parameters: op.parameters ?? [], body });
    }
  }
  return operations;
}
