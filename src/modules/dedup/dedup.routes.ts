import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../http/authenticate.js';
import { DatasetIdParams, TaskAccepted, errorResponses, taskLocation } from '../../http/schemas.js';
import { TaskStarted } from '../annotations/annotations.schemas.js';
import { DedupBody, DedupPlanResponse } from './dedup.schemas.js';
import { type DedupService, GROUPS_PER_PAGE } from './dedup.service.js';

/** Dedup (issue 29, docs/curation.md): editor access; a dry run answers the groups, otherwise a DEDUP task starts. */
export function dedupRoutes(app: FastifyInstance, deps: { dedup: DedupService }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.post(
    '/api/v1/dataset/:dataset_id/dedup',
    {
      schema: {
        tags: ['curation'],
        summary:
          'Remove duplicates, keeping one media of each group by a rule: dry_run answers 200 with the groups and their keepers (paged); ' +
          'otherwise a DEDUP task starts (202 {task_id}) that snapshots the dataset ("Before dedup …"; restore it to undo) and makes a version ' +
          'without the others, or with tag_only tags them `duplicate`',
        params: DatasetIdParams,
        body: DedupBody,
        response: { 200: DedupPlanResponse, 202: TaskAccepted(TaskStarted), ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const { dataset_id } = request.params;
      const { dry_run, page_number = 0, ...input } = request.body;
      if (dry_run) {
        const { rule, totals, groups } = await deps.dedup.plan(principal, dataset_id, input, page_number);
        return { scope: rule.scope, level: rule.level, keep: rule.keep, field: rule.field, order: rule.order, totals, page_number, groups_per_page: GROUPS_PER_PAGE, groups };
      }
      const taskId = await deps.dedup.start(principal, dataset_id, input);
      return reply.code(202).header('location', taskLocation(taskId)).send({ task_id: taskId });
    },
  );
}
