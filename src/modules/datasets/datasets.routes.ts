import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../http/authenticate.js';
import { DatasetIdParams, errorResponses } from '../../http/schemas.js';
import { presentDataset } from './datasets.presenter.js';
import { DatasetListQuery, DatasetPatch } from './datasets.schemas.js';
import type { DatasetsService } from './datasets.service.js';

export function datasetsRoutes(app: FastifyInstance, deps: { datasets: DatasetsService }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/api/v1/dataset/:dataset_id',
    {
      schema: {
        tags: ['datasets'],
        summary: 'Dataset status and counts',
        params: DatasetIdParams,
        response: { 200: Type.Ref('Dataset'), ...errorResponses(401, 404, 422) },
      },
    },
    async (request) => presentDataset(await deps.datasets.get(principalOf(request), request.params.dataset_id)),
  );

  r.patch(
    '/api/v1/dataset/:dataset_id',
    {
      schema: {
        tags: ['datasets'],
        summary: 'Rename or re-describe a dataset (display_name and/or description)',
        params: DatasetIdParams,
        body: DatasetPatch,
        response: { 200: Type.Ref('Dataset'), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => presentDataset(await deps.datasets.update(principalOf(request), request.params.dataset_id, request.body)),
  );

  r.delete(
    '/api/v1/dataset/:dataset_id',
    {
      schema: {
        tags: ['datasets'],
        summary: 'Delete a dataset (owner only; 409 while a task runs on it); blobs nothing else uses are reclaimed',
        params: DatasetIdParams,
        response: { 204: Type.Null(), ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      await deps.datasets.remove(principalOf(request), request.params.dataset_id);
      return reply.code(204).send(null);
    },
  );

  r.get(
    '/api/v1/datasets',
    {
      schema: {
        tags: ['datasets'],
        summary: 'Datasets the caller owns or that are shared with them, newest first',
        querystring: DatasetListQuery,
        response: { 200: Type.Array(Type.Ref('Dataset')), ...errorResponses(401, 422) },
      },
    },
    async (request) => {
      const rows = await deps.datasets.list(principalOf(request), request.query);
      return rows.map(presentDataset);
    },
  );
}
