import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../http/authenticate.js';
import { DatasetIdParams, TaskAccepted, errorResponses, taskLocation } from '../../http/schemas.js';
import { mediaLinker } from '../media/media-links.js';
import type { MediaService } from '../media/media.service.js';
import { presentPairs, presentRun } from './leakage.presenter.js';
import { LeakageBody, LeakageParams, LeakageRun, LeakageStarted, PairsPage, PairsQuery } from './leakage.schemas.js';
import type { LeakageService } from './leakage.service.js';

/** Leakage between two datasets or the splits of one (docs/curation.md, Leakage): a LEAKAGE task, then its result. */
export function leakageRoutes(app: FastifyInstance, deps: { leakage: LeakageService; media: MediaService; publicUrl: string | null }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { leakage } = deps;
  const linker = mediaLinker(deps.media, deps.publicUrl);
  const base = '/api/v1/dataset/:dataset_id/leakage';

  r.post(
    base,
    {
      schema: {
        tags: ['curation'],
        summary:
          'Find near-duplicates across this dataset and another (other_dataset_id), or across the splits of a custom field (split_field): ' +
          'a LEAKAGE task (202, Location) whose result is read at GET …/leakage/{task_id}; with tag, the leaked media are tagged',
        params: DatasetIdParams,
        body: LeakageBody,
        response: { 202: TaskAccepted(LeakageStarted), ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const taskId = await leakage.start(principalOf(request), request.params.dataset_id, request.body);
      return reply.code(202).header('location', taskLocation(taskId)).send({ task_id: taskId });
    },
  );

  r.get(
    `${base}/:task_id`,
    {
      schema: {
        tags: ['curation'],
        summary: "A leakage run's result: per compared pair of sides, each side's media, leaked media and their share; 409 until its task is COMPLETED",
        params: LeakageParams,
        response: { 200: LeakageRun, ...errorResponses(401, 404, 409, 422) },
      },
    },
    async (request) => presentRun(await leakage.result(principalOf(request), request.params.dataset_id, request.params.task_id)),
  );

  r.get(
    `${base}/:task_id/pairs`,
    {
      schema: {
        tags: ['curation'],
        summary: "A page of a leakage run's pairs, most similar first: both media (id, file name, dataset, thumbnail link) and their similarity",
        params: LeakageParams,
        querystring: PairsQuery,
        response: { 200: PairsPage, ...errorResponses(401, 404, 409, 422) },
      },
    },
    async (request) => {
      const { dataset_id, task_id } = request.params;
      const page = await leakage.pairs(principalOf(request), dataset_id, task_id, request.query.page_number, request.query.comparison);
      return presentPairs(page, (datasetId) => linker(request, datasetId));
    },
  );
}
