// The committed openapi.json, which test/contract/first-steps.test.ts keeps equal to what the server generates.
import fs from 'node:fs';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { SUCCESS_EXAMPLES } from '../../src/http/openapi-examples.js';

interface Media {
  schema: Record<string, any>;
  example?: unknown;
}
interface Operation {
  parameters?: Array<{ in: string; name: string; required?: boolean; schema: Record<string, unknown> }>;
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, Media> }>;
}

const document = JSON.parse(fs.readFileSync('openapi.json', 'utf8'));
const operations: Array<[string, Operation]> = Object.entries(document.paths as Record<string, Record<string, Operation>>).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, op]): [string, Operation] => [`${method.toUpperCase()} ${path}`, op]),
);
const op = (name: string) => operations.find(([n]) => n === name)![1];
const isBytes = (media: Media) => media.schema.format === 'binary';

// OpenAPI 3.0 schemas: `nullable` is understood, `example` is an annotation; refs resolve inside the document's components.
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);
const validate = (schema: object, value: unknown) => {
  const check = ajv.compile({ ...schema, components: document.components });
  return check(value) ? [] : check.errors!.map((e) => `${e.instancePath} ${e.message}`);
};

describe('openapi.json operation ids', () => {
  it('names every operation once, from its method and path, so client generators name their methods', () => {
    const ids = operations.map(([, o]) => (o as { operationId?: string }).operationId);
    expect(ids.filter((id) => !id || !/^[a-z]+[A-Za-z0-9]+$/.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    expect((op('GET /api/v1/tasks/{task_id}') as { operationId?: string }).operationId).toBe('getTasksByTaskId');
    expect((op('POST /api/v1/dataset/{dataset_id}/add_media') as { operationId?: string }).operationId).toBe('postDatasetAddMedia');
  });
});

describe('openapi.json examples', () => {
  it('every operation has an example of each success response that has a body, and every error response has one', () => {
    const missing = operations.flatMap(([name, o]) =>
      Object.entries(o.responses).flatMap(([status, response]) =>
        Object.entries(response.content ?? {})
          .filter(([, media]) => !isBytes(media) && media.example === undefined)
          .map(([type]) => `${name} ${status} ${type}`),
      ),
    );
    expect(missing).toEqual([]);
    const withoutSuccessExample = operations.filter(([, o]) => {
      const success = Object.entries(o.responses).filter(([status]) => status.startsWith('2'));
      return !success.some(([, r]) => !r.content || Object.values(r.content).some((m) => m.example !== undefined || isBytes(m)));
    });
    expect(withoutSuccessExample.map(([name]) => name)).toEqual([]);
  });

  it('every example names an operation of the document (none left behind by a renamed route)', () => {
    const names = new Set(operations.flatMap(([name, o]) => [name, ...Object.keys(o.responses).map((status) => `${name} ${status}`)]));
    expect(Object.keys(SUCCESS_EXAMPLES).filter((key) => !names.has(key))).toEqual([]);
  });

  it('every example is valid against its response schema', () => {
    const invalid = operations.flatMap(([name, o]) =>
      Object.entries(o.responses).flatMap(([status, response]) =>
        Object.values(response.content ?? {})
          .filter((media) => media.example !== undefined)
          .flatMap((media) => validate(media.schema, media.example).map((error) => `${name} ${status}: ${error}`)),
      ),
    );
    expect(invalid).toEqual([]);
  });

  it('the check can fail: a wrong example is caught', () => {
    const task = op('GET /api/v1/tasks/{task_id}').responses['200']!.content!['application/json']!;
    expect(validate(task.schema, { ...(task.example as object), status: 'DONE' })).not.toEqual([]);
    expect(validate(task.schema, task.example)).toEqual([]);
  });
});

describe('openapi.json request bodies', () => {
  const multipart = (name: string) => op(name).requestBody?.content['multipart/form-data']?.schema;
  const binary = { type: 'string', format: 'binary' };

  it('exactly the routes that read multipart forms document one', () => {
    expect(operations.filter(([, o]) => o.requestBody?.content['multipart/form-data']).map(([name]) => name).sort()).toEqual([
      'POST /api/v1/dataset/{dataset_id}/add_media',
      'POST /api/v1/dataset/{dataset_id}/custom_metadata',
      'POST /api/v1/dataset/{dataset_id}/search-image-similarity',
      'POST /api/v1/dataset/{dataset_id}/share',
      'POST /api/v1/dataset/{dataset_id}/views',
      'POST /api/v1/ingestion/{dataset_id}/data_files/{trans_id}',
    ]);
  });

  it('files are binary strings, a repeated `files` an array of them, with what is required', () => {
    const upload = multipart('POST /api/v1/ingestion/{dataset_id}/data_files/{trans_id}')!;
    expect(upload).toMatchObject({ required: ['files'], properties: { files: { type: 'array', items: binary } } });
    const addMedia = multipart('POST /api/v1/dataset/{dataset_id}/add_media')!;
    expect(addMedia.properties).toMatchObject({ files: { type: 'array', items: binary }, archive: binary, s3_uri: { type: 'string' }, auto_reindex: { type: 'boolean', default: false } });
    expect(Object.keys(addMedia.properties).sort()).toEqual(['archive', 'assume_role', 'auto_reindex', 'batch_n_images', 'batch_n_objects', 'batch_n_videos', 'files', 's3_uri', 'use_spot']);
    expect(addMedia.required).toBeUndefined();
    expect(multipart('POST /api/v1/dataset/{dataset_id}/custom_metadata')).toMatchObject({ required: ['file'], properties: { file: binary } });
    expect(multipart('POST /api/v1/dataset/{dataset_id}/search-image-similarity')).toMatchObject({ required: ['file'], properties: { file: binary, bounding_box: { type: 'string' } } });
    expect(multipart('POST /api/v1/dataset/{dataset_id}/share')).toMatchObject({ required: ['user_email'], properties: { role: { enum: ['viewer', 'editor'] } } });
    expect(multipart('POST /api/v1/dataset/{dataset_id}/views')).toMatchObject({ required: ['name'] });
  });

  it("a form's other content types carry its text fields only", () => {
    const urlencoded = op('POST /api/v1/dataset/{dataset_id}/add_media').requestBody!.content['application/x-www-form-urlencoded']!.schema;
    expect(Object.keys(urlencoded.properties)).not.toContain('files');
    expect(Object.keys(urlencoded.properties)).not.toContain('archive');
    expect(urlencoded.properties.s3_uri).toEqual(expect.objectContaining({ type: 'string' }));
    expect(Object.keys(op('POST /api/v1/dataset/{dataset_id}/share').requestBody!.content).sort()).toEqual(['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data']);
  });
});

describe('openapi.json parameters and headers', () => {
  it('no parameter the server defaults is marked required; those without a default stay required', () => {
    const defaulted = operations.flatMap(([name, o]) => (o.parameters ?? []).filter((p) => p.required && p.schema.default !== undefined).map((p) => `${name} ${p.name}`));
    expect(defaulted).toEqual([]);
    const query = (name: string) => Object.fromEntries((op(name).parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, p.required ?? false]));
    expect(query('GET /api/v1/datasets')).toEqual({ limit: false, offset: false });
    expect(query('GET /api/v1/explore/{dataset_id}')).toMatchObject({ threshold: false, entity_type: false, page_number: false, previews_limit: false });
    expect(query('GET /api/v1/dataset/{dataset_id}/export_context_async')).toEqual({ file_name: true, export_format: true, include_images: false });
  });

  it('each 202 that starts a task documents its Location header, and GET /api/v1/tasks/{task_id} answers a Task', () => {
    for (const name of [
      'POST /api/v1/dataset/{dataset_id}/add_media',
      'POST /api/v1/dataset/{dataset_id}/reindex',
      'GET /api/v1/process/add_media',
      'POST /api/v1/dataset/{dataset_id}/snapshot/{snapshot_id}/restore',
      'POST /api/v1/dataset/{dataset_id}/snapshot/{snapshot_id}/clone',
      'POST /api/v1/ingestion/{dataset_id}/process_files/{trans_id}',
      'POST /api/v1/dataset/{dataset_id}/custom_metadata',
      'POST /api/v1/dataset/{dataset_id}/labels/propagate',
    ]) {
      expect(op(name).responses['202']?.headers?.Location, name).toMatchObject({ schema: { type: 'string' } });
    }
    expect(op('POST /api/v1/dataset/{dataset_id}/reindex').responses['202']!.content).toBeUndefined();
    expect(op('GET /api/v1/tasks/{task_id}').responses['200']!.content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/Task' });
  });
});
