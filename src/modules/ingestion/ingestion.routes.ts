import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../http/authenticate.js';
import { errorResponses } from '../../http/schemas.js';
import { NewDatasetQuery, NewDatasetResponse } from '../datasets/datasets.schemas.js';
import type { DatasetsService } from '../datasets/datasets.service.js';

export function ingestionRoutes(app: FastifyInstance, deps: { datasets: DatasetsService }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

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
}
