import type { Multipart } from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../core/errors.js';
import { principalOf } from '../../http/authenticate.js';
import { drain } from '../../http/multipart.js';
import { DatasetIdParams, EmptyBody as Empty, errorResponses } from '../../http/schemas.js';
import type { AddMediaPart, AddMediaService } from './add-media.service.js';


export function addMediaRoutes(app: FastifyInstance, deps: { addMedia: AddMediaService; processRoutes: boolean }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { addMedia } = deps;

  r.post(
    '/api/v1/dataset/:dataset_id/add_media',
    {
      schema: {
        tags: ['add media'],
        summary:
          "Add media to an indexed dataset (READY or PARTIAL INDEX) as one batch: exactly one of the multipart fields 'files' (repeated), " +
          "'archive' (.zip, .tar, .tar.gz) or 's3_uri' (folder or .csv/.parquet/.txt manifest); optional auto_reindex, assume_role, " +
          'batch_n_images, batch_n_videos, batch_n_objects, use_spot. Starts a MEDIA_ADDITION task; 202 with an empty body',
        consumes: ['multipart/form-data'],
        params: DatasetIdParams,
        response: { 202: Empty, ...errorResponses(400, 401, 403, 404, 409, 413, 422, 500) },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw errors.exactlyOneSource();
      const limits = addMedia.settings.limits;
      const parts = request.parts({ limits: { fileSize: limits.maxRequestBytes + 1, files: limits.maxFilesPerRequest + 2 } })[Symbol.asyncIterator]();
      try {
        await addMedia.start(principalOf(request), request.params.dataset_id, formParts(parts));
      } catch (err) {
        await drain(parts);
        throw err;
      }
      return reply.code(202).send();
    },
  );

  r.post(
    '/api/v1/dataset/:dataset_id/reindex',
    {
      schema: {
        tags: ['add media'],
        summary: 'Recompute the neighbour graph, clusters and scores over all media: only from PARTIAL INDEX; starts a REINDEX task; 202',
        params: DatasetIdParams,
        response: { 202: Empty, ...errorResponses(401, 403, 404, 409, 500) },
      },
    },
    async (request, reply) => {
      await addMedia.reindex(principalOf(request), request.params.dataset_id);
      return reply.code(202).send();
    },
  );

  if (!deps.processRoutes) return;
  r.get(
    '/api/v1/process/add_media',
    {
      schema: {
        tags: ['add media'],
        summary:
          'On-premises source (the pipeline URL): add the media under an absolute folder on this server, which must lie inside ' +
          'LOCAL_MEDIA_ROOTS (403 otherwise); same rules as add_media; 202',
        querystring: Type.Object({ dataset_id: Type.String({ format: 'uuid' }), path: Type.String({ minLength: 1, maxLength: 4096 }) }),
        response: { 202: Empty, ...errorResponses(400, 401, 403, 404, 409, 422, 500) },
      },
    },
    async (request, reply) => {
      await addMedia.startFromPath(principalOf(request), request.query.dataset_id, request.query.path);
      return reply.code(202).send();
    },
  );
}

/** Fields and files in body order; an iterator that stays open when the consumer stops early, so the rest can be drained. */
function formParts(parts: AsyncIterator<Multipart>): AsyncIterable<AddMediaPart> {
  return {
    [Symbol.asyncIterator]: () => ({
      async next(): Promise<IteratorResult<AddMediaPart>> {
        const result = await parts.next();
        if (result.done) return { done: true, value: undefined };
        const part = result.value;
        return part.type === 'file'
          ? { done: false, value: { kind: 'file', field: part.fieldname, fileName: part.filename, stream: part.file } }
          : { done: false, value: { kind: 'field', name: part.fieldname, value: String(part.value) } };
      },
      async return(): Promise<IteratorResult<AddMediaPart>> {
        return { done: true, value: undefined };
      },
    }),
  };
}
