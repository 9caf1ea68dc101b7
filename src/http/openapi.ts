import type { TSchema } from '@sinclair/typebox';
import type { FastifySchema } from 'fastify';

/**
 * How routes become the OpenAPI document, in one place: shared schemas keep their names, multipart forms are
 * documented from a route's `form` schema, and a parameter the server defaults is not required of a client.
 */
declare module 'fastify' {
  interface FastifySchema {
    /**
     * The form a route reads itself (readForm, readFormFields) rather than through `body`, so Fastify never validates
     * it: documented as the multipart/form-data request body; files are `{type: string, format: binary}` (arrays for
     * a repeated field); without its files it also documents the route's other `consumes` types.
     */
    form?: TSchema;
  }
}

type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; required?: string[]; items?: Schema; content?: Record<string, { schema: Schema }> };

/** Components are named by their `$id` (Dataset, Task, Error…), so generated clients get readable type names. */
export const refResolver = { buildLocalReference: (json: { $id?: string }, _base: unknown, _fragment: string, i: number) => json.$id ?? `def-${i}` };

const MULTIPART = 'multipart/form-data';

/** The @fastify/swagger `transform`: the documented copy of a route's schema; what Fastify validates is untouched. */
export function documentRoute({ schema, url }: { schema: FastifySchema | undefined; url: string }): { schema: FastifySchema; url: string } {
  if (!schema) return { schema: schema as never, url };
  const documented: Record<string, unknown> = { ...schema };
  if (schema.querystring) documented.querystring = defaultsOptional(schema.querystring as Schema);
  if (schema.body) documented.body = defaultsOptional(schema.body as Schema);
  if (schema.consumes?.includes(MULTIPART) && !schema.form) throw new Error(`${url} takes ${MULTIPART} but documents no form`);
  if (schema.form) {
    documented.body = formBody(schema.form as unknown as Schema, [...(schema.consumes ?? [MULTIPART])], documented.body as Schema | undefined);
    delete documented.form;
  }
  return { schema: documented, url };
}

/** A property the server fills in when absent (AJV useDefaults) is optional for the client, at any depth. */
function defaultsOptional(schema: Schema): Schema {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  const copy: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && value && typeof value === 'object') {
      copy.properties = Object.fromEntries(Object.entries(value as Record<string, Schema>).map(([name, prop]) => [name, defaultsOptional(prop)]));
    } else if (key === 'required' && Array.isArray(value)) {
      copy.required = value.filter((name: string) => schema.properties?.[name]?.default === undefined);
    } else if (value && typeof value === 'object') {
      copy[key] = Array.isArray(value) ? value.map((v) => defaultsOptional(v as Schema)) : defaultsOptional(value as Schema);
    } else copy[key] = value;
  }
  if (copy.required?.length === 0) delete copy.required;
  return copy;
}

const isFile = (prop: Schema | undefined): boolean => !!prop && (prop.format === 'binary' || isFile(prop.items));

/** The route's form for multipart, and its text fields alone for its other content types (those carry no files). */
function formBody(form: Schema, consumes: string[], body: Schema | undefined): Schema {
  const content: Record<string, { schema: Schema }> = { ...(body?.content ?? {}) };
  for (const type of consumes) {
    if (content[type]) continue;
    if (type === MULTIPART) content[type] = { schema: form };
    else content[type] = { schema: textFields(form) };
  }
  return { content };
}

function textFields(form: Schema): Schema {
  const { required, ...rest } = form;
  const properties = Object.fromEntries(Object.entries(form.properties ?? {}).filter(([, prop]) => !isFile(prop)));
  const kept = required?.filter((name) => name in properties);
  return { ...rest, properties, ...(kept?.length ? { required: kept } : {}) };
}

type Operations = Record<string, Record<string, { operationId?: string; tags?: string[] }>>;

/**
 * Names every operation from its method and path, so client generators name their methods (`GET
 * /api/v1/dataset/{dataset_id}/snapshot` → getDatasetSnapshot; trailing parameters → ByTaskId…); a clash fails the build.
 */
export function addOperationIds<D extends { paths?: Operations }>(document: D): D {
  const taken = new Map<string, string>();
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations)) {
      // The web app's pages share paths with the API's words (/datasets beside /api/v1/datasets).
      const id = operationId(method, operation.tags?.includes('web') ? `/web-page${path}` : path);
      const other = taken.get(id);
      if (other) throw new Error(`operationId ${id} of ${method.toUpperCase()} ${path} is also ${other}'s`);
      taken.set(id, `${method.toUpperCase()} ${path}`);
      operation.operationId = id;
    }
  }
  return document;
}

function operationId(method: string, path: string): string {
  const segments = path.replace(/^\/api\/v1(?=\/)/, '').split('/').filter((s) => s !== '' && s !== '*');
  let end = segments.length;
  while (end > 0 && segments[end - 1]!.startsWith('{')) end--;
  const words = segments.slice(0, end).filter((s) => !s.startsWith('{'));
  const trailing = segments.slice(end).map((s) => (s === '{*}' ? 'path' : s.slice(1, -1)));
  const pascal = (s: string) => s.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
  return method.toLowerCase() + (words.map(pascal).join('') || 'Root') + (trailing.length ? `By${trailing.map(pascal).join('And')}` : '');
}
