import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../http/authenticate.js';
import { DatasetIdParams, TaskAccepted, errorResponses, taskLocation } from '../../http/schemas.js';
import { TaskStarted } from '../annotations/annotations.schemas.js';
import { SelectBody } from './selection.schemas.js';
import type { SelectionService } from './selection.service.js';

/** Subsets for a labelling budget: editor access; a SELECTION task tags the chosen media or clones them into a new dataset. */
export function selectionRoutes(app: FastifyInstance, deps: { selection: SelectionService }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.post(
    '/api/v1/dataset/:dataset_id/select',
    {
      schema: {
        tags: ['curation'],
        summary:
          'Choose n media (or a fraction) for a labelling budget: diverse (greedy k-center), representative (clusters in proportion to size) ' +
          "or uncertain (a numeric custom field, highest first), optionally among an Explore query's matches; a SELECTION task (202 {task_id}) " +
          "tags them (default tag 'selected') or clones them into a new dataset named `name`",
        params: DatasetIdParams,
        body: SelectBody,
        response: { 202: TaskAccepted(TaskStarted), ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const taskId = await deps.selection.start(principalOf(request), request.params.dataset_id, request.body);
      return reply.code(202).header('location', taskLocation(taskId)).send({ task_id: taskId });
    },
  );
}
