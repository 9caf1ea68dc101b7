import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../http/authenticate.js';
import { DatasetIdParams, errorResponses } from '../../http/schemas.js';
import { EnrichBody, EnrichResponse, EnrichmentContext } from './enrichment.schemas.js';
import type { EnrichmentService } from './enrichment.service.js';

/** Spec 4.4. */
export function enrichmentRoutes(app: FastifyInstance, deps: { enrichment: EnrichmentService }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/api/v1/enrichment/:dataset_id/list_models',
    {
      schema: {
        tags: ['enrichment'],
        summary: 'The enrichment models this server has; only Active ones can be applied',
        params: DatasetIdParams,
        response: { 200: Type.Array(Type.Ref('EnrichmentModel')), ...errorResponses(401, 404, 422) },
      },
    },
    async (request) =>
      (await deps.enrichment.listModels(principalOf(request), request.params.dataset_id)).map(({ runner: _runner, ...model }) => model),
  );

  r.get(
    '/api/v1/enrichment/:dataset_id/context',
    {
      schema: {
        tags: ['enrichment'],
        summary: "The dataset's enrichment context: status NEW and an empty map until models were applied",
        params: DatasetIdParams,
        response: { 200: EnrichmentContext, ...errorResponses(401, 404, 422) },
      },
    },
    async (request) => {
      const context = await deps.enrichment.context(principalOf(request), request.params.dataset_id);
      return {
        enrichment_context_id: context.enrichment_context_id,
        status: context.status,
        dataset_enrichment_models: { enrichment_models: context.enrichment_models },
      };
    },
  );

  r.post(
    '/api/v1/dataset/:dataset_id/enrich_dataset',
    {
      schema: {
        tags: ['enrichment'],
        summary:
          'Enrich a READY dataset into a new copy "<name> (enriched)": 200 with its id at once (INDEXING); an ENRICHMENT task runs the models in dependency order; the source is READ ONLY meanwhile',
        params: DatasetIdParams,
        body: EnrichBody,
        response: { 200: EnrichResponse, ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request) => {
      const { datasetId } = await deps.enrichment.enrich(principalOf(request), request.params.dataset_id, request.body.enrichment_models);
      return { dataset_id: datasetId };
    },
  );
}
