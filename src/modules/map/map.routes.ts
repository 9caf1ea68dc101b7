import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../http/authenticate.js';
import { DatasetIdParams, errorResponses } from '../../http/schemas.js';
import { MapQuery, MapResponse, SelectionBody, SelectionResponse } from './map.schemas.js';
import type { MapService } from './map.service.js';

export function mapRoutes(app: FastifyInstance, deps: { map: MapService }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    '/api/v1/dataset/:dataset_id/map',
    {
      schema: {
        tags: ['explore'],
        summary: "The embedding map of the dataset's current version: its bounds and a page of points (media, x, y, cluster), optionally inside a rectangle",
        params: DatasetIdParams,
        querystring: MapQuery,
        response: { 200: MapResponse, ...errorResponses(401, 404, 409, 422) },
      },
    },
    async (request) => deps.map.page(principalOf(request), request.params.dataset_id, request.query),
  );
  r.post(
    '/api/v1/dataset/:dataset_id/map/selection',
    {
      schema: {
        tags: ['explore'],
        summary: 'The media inside a lasso (polygon) or rectangle on the embedding map: their count, a page of ids, and the same selection as a vql filter',
        params: DatasetIdParams,
        body: SelectionBody,
        response: { 200: SelectionResponse, ...errorResponses(401, 404, 409, 422) },
      },
    },
    async (request) => {
      const { polygon, ...selection } = await deps.map.selection(principalOf(request), request.params.dataset_id, request.body);
      return { ...selection, vql: JSON.stringify([{ map: { op: 'within', value: polygon } }]) };
    },
  );
}
