import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../core/errors.js';
import { principalOf } from '../../http/authenticate.js';
import { readForm } from '../../http/multipart.js';
import { DatasetIdParams, FileField, TaskAccepted, errorResponses, taskLocation } from '../../http/schemas.js';
import type { AddMediaService } from './add-media.service.js';

const Count = (what: string) => Type.Integer({ minimum: 1, maximum: 1_000_000, description: `Overrides the calculated number of ${what} processed at once` });

/** Spec 4.7: exactly one media source, then the optional parameters. */
const AddMediaForm = Type.Object(
  {
    files: Type.Optional(Type.Array(FileField('An image or video'), { description: "Direct upload: repeat the field 'files' (not 'files[]') for each file" })),
    archive: Type.Optional(FileField('One .zip, .tar or .tar.gz archive of media')),
    s3_uri: Type.Optional(Type.String({ description: 'Object-storage folder, or a .csv, .parquet or .txt manifest listing media', examples: ['s3://bucket/new-photos/'] })),
    auto_reindex: Type.Optional(Type.Boolean({ default: false, description: 'Run a full reindex after the batch' })),
    assume_role: Type.Optional(Type.String({ description: 'IAM role ARN to assume for reading the bucket' })),
    batch_n_videos: Type.Optional(Count('videos')),
    batch_n_images: Type.Optional(Count('images')),
    batch_n_objects: Type.Optional(Count('objects')),
    use_spot: Type.Optional(Type.Boolean({ description: 'Recorded only: a self-hosted install has no spot instances' })),
  },
  { description: 'Exactly one media source: files, archive or s3_uri' },
);

export function addMediaRoutes(app: FastifyInstance, deps: { addMedia: AddMediaService; processRoutes: boolean }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { addMedia } = deps;

  r.post(
    '/api/v1/dataset/:dataset_id/add_media',
    {
      schema: {
        tags: ['add media'],
        summary:
          "Add media to an indexed dataset (READY or PARTIAL INDEX) as one batch: exactly one of the form fields 'files' (repeated), " +
          "'archive' (.zip, .tar, .tar.gz) or 's3_uri' (folder or .csv/.parquet/.txt manifest); optional auto_reindex, assume_role, " +
          'batch_n_images, batch_n_videos, batch_n_objects, use_spot. Files need multipart; s3_uri may also come urlencoded. ' +
          'Starts a MEDIA_ADDITION task; 202 with an empty body and a Location header naming the task',
        consumes: ['multipart/form-data', 'application/x-www-form-urlencoded'],
        form: AddMediaForm,
        params: DatasetIdParams,
        response: { 202: TaskAccepted(), ...errorResponses(400, 401, 403, 404, 409, 413, 422, 500) },
      },
    },
    async (request, reply) => {
      const { maxFileBytes, maxRequestBytes, maxFilesPerRequest } = addMedia.settings.limits;
      const shape = {
        maxFileBytes: Math.max(maxFileBytes, maxRequestBytes),
        files: { files: { max: maxFilesPerRequest, tooMany: () => errors.tooManyFiles(maxFilesPerRequest) }, archive: { max: 1, tooMany: errors.exactlyOneSource } },
        duplicateField: (name: string) => (name === 's3_uri' ? errors.exactlyOneSource() : errors.duplicateFormField(name)),
      };
      const taskId = await readForm(request, shape, (parts) => addMedia.start(principalOf(request), request.params.dataset_id, parts));
      return reply.code(202).header('location', taskLocation(taskId)).send();
    },
  );

  r.post(
    '/api/v1/dataset/:dataset_id/reindex',
    {
      schema: {
        tags: ['add media'],
        summary: 'Recompute the neighbour graph, clusters and scores over all media: only from PARTIAL INDEX; starts a REINDEX task; 202 with a Location header naming the task',
        params: DatasetIdParams,
        response: { 202: TaskAccepted(), ...errorResponses(401, 403, 404, 409, 500) },
      },
    },
    async (request, reply) => {
      const taskId = await addMedia.reindex(principalOf(request), request.params.dataset_id);
      return reply.code(202).header('location', taskLocation(taskId)).send();
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
          'LOCAL_MEDIA_ROOTS (403 otherwise); same rules as add_media; 202 with a Location header naming the MEDIA_ADDITION task',
        querystring: Type.Object({ dataset_id: Type.String({ format: 'uuid' }), path: Type.String({ minLength: 1, maxLength: 4096 }) }),
        response: { 202: TaskAccepted(), ...errorResponses(400, 401, 403, 404, 409, 422, 500) },
      },
    },
    async (request, reply) => {
      const taskId = await addMedia.startFromPath(principalOf(request), request.query.dataset_id, request.query.path);
      return reply.code(202).header('location', taskLocation(taskId)).send();
    },
  );
}
