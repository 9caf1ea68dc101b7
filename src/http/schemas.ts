import { type Static, type TSchema, Type } from '@sinclair/typebox';

export const ErrorBody = Type.Object({ detail: Type.String() }, { $id: 'Error', description: 'Every error: `{"detail": "..."}`' });
export const ErrorRef = Type.Ref('Error');

/** Error responses a route documents, by status code. */
export function errorResponses(...codes: number[]) {
  return Object.fromEntries(codes.map((code) => [code, ErrorRef]));
}

/** A response with no body (200 for a delete); `type: null` keeps a content type out of the OpenAPI document. */
export const EmptyBody = Type.Unsafe<undefined>({ type: 'null', description: 'Empty body' });

/** Where a started task is followed: GET it for its status and progress. */
export const taskLocation = (taskId: string) => `/api/v1/tasks/${taskId}`;

/** A 202 that started a task: the body the spec fixes (empty unless told), and a Location header naming the task. */
export function TaskAccepted<S extends TSchema>(body: S = EmptyBody as unknown as S) {
  return Type.Unsafe<Static<S>>({
    ...body,
    headers: {
      Location: {
        type: 'string',
        description: 'The started task, `/api/v1/tasks/{task_id}`: GET it to follow its status and progress',
        example: '/api/v1/tasks/3f1e2d4c-5b6a-4978-8a9b-0c1d2e3f4a5b',
      },
    },
  });
}

/**
 * The largest offset, page position or id a parameter takes: Postgres int4, the type of the columns these reach;
 * far past any real list, and numbers beyond it (1e23 becomes the text '1e+23') made the query fail.
 */
export const MAX_INT = 2_147_483_647;

/** A signed link's `expires` (Unix seconds): any ten-digit time; past or wrong ones fail the signature check. */
export const Expires = Type.Integer({ minimum: 0, maximum: 9_999_999_999 });

/** A response of raw bytes (an image, a video, a ZIP) under these media types: sent as they are, never serialized. */
export function BytesResponse(description: string, mediaTypes: string[]) {
  return { description, content: Object.fromEntries(mediaTypes.map((type) => [type, { schema: Type.String({ format: 'binary' }) }])) };
}

/** A file in a multipart form, as OpenAPI spells it (a route's `form`, documentation only). */
export const FileField = (description: string) => Type.String({ format: 'binary', description });

export const DatasetIdParams = Type.Object({ dataset_id: Type.String({ format: 'uuid' }) });

/** A string enum as plain JSON Schema `enum`, so a wrong value gets one clear 422 naming the allowed ones. */
export function StringEnum<const T extends readonly string[]>(values: T, options: { default?: T[number]; description?: string } = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/**
 * `T | null` as `type: [T, "null"]` rather than anyOf: the response serializer then writes it
 * directly instead of validating every value to pick a branch (measured: half the list's cost).
 */
export function Nullable<S extends TSchema & { type: string }>(schema: S) {
  return Type.Unsafe<Static<S> | null>({ ...schema, type: [schema.type, 'null'] });
}
