import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../core/errors.js';
import { principalOf } from '../../http/authenticate.js';
import { readForm } from '../../http/multipart.js';
import { DatasetIdParams, FileField, MAX_INT, TaskAccepted, errorResponses, taskLocation } from '../../http/schemas.js';
import { NewDatasetQuery, NewDatasetResponse } from '../datasets/datasets.schemas.js';
import type { DatasetsService } from '../datasets/datasets.service.js';
import type { IngestionService } from './ingestion.service.js';

const TransactionParams = Type.Object({ dataset_id: Type.String({ format: 'uuid' }), trans_id: Type.Integer({ minimum: 1, maximum: MAX_INT }) });
const UploadAccepted = Type.Object({
  trans_id: Type.Integer(),
  files: Type.Array(Type.Object({ file_name: Type.String(), media_kind: Type.String(), format: Type.String(), size: Type.Integer() })),
});

export function ingestionRoutes(app: FastifyInstance, deps: { datasets: DatasetsService; ingestion: IngestionService }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { ingestion } = deps;

  r.get(
    '/api/v1/ingestion/new_dataset',
    {
      schema: {
        tags: ['ingestion'],
        summary: 'Create an empty dataset owned by the caller (step 1 of creation from local files)',
        querystring: NewDatasetQuery,
        response: { 200: NewDatasetResponse, ...errorResponses(400, 401) },
      },
    },
    async (request) => ({ dataset_id: await deps.datasets.create(principalOf(request), request.query.dataset_name) }),
  );

  r.get(
    '/api/v1/ingestion/:dataset_id/data_files',
    {
      schema: {
        tags: ['ingestion'],
        summary: 'Open an upload transaction (step 2)',
        params: DatasetIdParams,
        response: { 200: Type.Object({ trans_id: Type.Integer() }), ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request) => ({ trans_id: await ingestion.openTransaction(principalOf(request), request.params.dataset_id) }),
  );

  r.post(
    '/api/v1/ingestion/:dataset_id/data_files/:trans_id',
    {
      schema: {
        tags: ['ingestion'],
        summary: "Upload files into a transaction (step 3): multipart, repeated field 'files'; may be repeated, ~50 files per request",
        consumes: ['multipart/form-data'],
        form: Type.Object({
          files: Type.Array(FileField('An image or video'), { minItems: 1, description: "Repeat the field 'files' (not 'files[]') for each file" }),
        }),
        params: TransactionParams,
        response: { 202: UploadAccepted, ...errorResponses(400, 401, 403, 404, 409, 413, 422) },
      },
    },
    async (request, reply) => {
      const { maxFileBytes, maxFilesPerRequest } = ingestion.limits;
      const shape = { maxFileBytes, files: { files: { max: maxFilesPerRequest, tooMany: () => errors.tooManyFiles(maxFilesPerRequest), missing: errors.noFilesInRequest } } };
      const { dataset_id, trans_id } = request.params;
      const result = await readForm(request, shape, (parts) => ingestion.upload(principalOf(request), dataset_id, trans_id, parts));
      return reply.code(202).send(result);
    },
  );

  r.post(
    '/api/v1/ingestion/:dataset_id/process_files/:trans_id',
    {
      schema: {
        tags: ['ingestion'],
        summary: 'Process the uploaded files (step 4): starts a DATASET_CREATION task; poll the dataset until READY or ERROR',
        params: TransactionParams,
        response: { 202: TaskAccepted(Type.Object({ dataset_id: Type.String({ format: 'uuid' }), task_id: Type.String({ format: 'uuid' }) })), ...errorResponses(400, 401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { dataset_id, trans_id } = request.params;
      const taskId = await ingestion.process(principalOf(request), dataset_id, trans_id);
      return reply.code(202).header('location', taskLocation(taskId)).send({ dataset_id, task_id: taskId });
    },
  );
}
