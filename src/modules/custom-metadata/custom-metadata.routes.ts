import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../core/errors.js';
import { principalOf } from '../../http/authenticate.js';
import { type FormPart, readForm } from '../../http/multipart.js';
import { DatasetIdParams, FileField, TaskAccepted, errorResponses, taskLocation } from '../../http/schemas.js';
import { FieldSchema, ImportParams, ImportReport, ImportStarted } from './custom-metadata.schemas.js';
import type { CustomMetadataService } from './custom-metadata.service.js';

export function customMetadataRoutes(app: FastifyInstance, deps: { customMetadata: CustomMetadataService }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { customMetadata } = deps;
  const base = '/api/v1/dataset/:dataset_id/custom_metadata';

  r.post(
    base,
    {
      schema: {
        tags: ['custom metadata'],
        summary:
          "Import custom metadata: multipart field 'file' (CSV with a header, JSON lines or Parquet) with a key column media_id or file_name; " +
          'other columns become typed fields (string, number, boolean, datetime, string_list); re-importing updates them. ' +
          '202 {task_id} of a CUSTOM_METADATA task; 400 and nothing changed for a file without a key column, with a type conflict, or too large',
        consumes: ['multipart/form-data'],
        form: Type.Object({ file: FileField('CSV with a header row, JSON lines or Parquet, with a media_id or file_name column') }),
        params: DatasetIdParams,
        response: { 202: TaskAccepted(ImportStarted), ...errorResponses(400, 401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const shape = {
        maxFileBytes: customMetadata.maxFileBytes,
        files: { file: { max: 1, tooMany: () => errors.oneFilePerField('file'), missing: errors.metadataFileRequired } },
        otherFile: errors.metadataFileRequired,
      };
      const taskId = await readForm(request, shape, (parts) => customMetadata.start(principalOf(request), request.params.dataset_id, () => firstFile(parts)));
      return reply.code(202).header('location', taskLocation(taskId)).send({ task_id: taskId });
    },
  );

  r.get(
    `${base}/schema`,
    { schema: { tags: ['custom metadata'], summary: "The dataset's custom fields and their types", params: DatasetIdParams, response: { 200: FieldSchema, ...errorResponses(401, 404) } } },
    async (request) => customMetadata.schema(principalOf(request), request.params.dataset_id),
  );

  r.get(
    `${base}/imports/:task_id`,
    {
      schema: {
        tags: ['custom metadata'],
        summary: 'An import task with its report: rows matched, unmatched and rejected (with reasons)',
        params: ImportParams,
        response: { 200: ImportReport, ...errorResponses(401, 404) },
      },
    },
    async (request) => customMetadata.report(principalOf(request), request.params.dataset_id, request.params.task_id),
  );
}

/** The form's one file (its shape refuses any other); the shape answers for a missing one. */
async function firstFile(parts: AsyncIterable<FormPart>) {
  for await (const part of parts) if (part.kind === 'file') return { fileName: part.fileName || 'metadata', stream: part.stream };
  return undefined;
}
