import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../http/authenticate.js';
import { DatasetIdParams, TaskAccepted, errorResponses, taskLocation } from '../../http/schemas.js';
import { LabelErrorsBody, LabelErrorsStarted } from './label-errors.schemas.js';
import type { LabelErrorsService } from './label-errors.service.js';

/** Label errors: editor access starts the analysis; its scores are Explore issues and export columns. */
export function labelErrorsRoutes(app: FastifyInstance, deps: { labelErrors: LabelErrorsService }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.post(
    '/api/v1/dataset/:dataset_id/label_errors',
    {
      schema: {
        tags: ['annotations'],
        summary:
          "Score every labelled media against its k nearest labelled neighbours and its label's centroid: a LABEL_ERRORS task (202 {task_id}) " +
          'that writes mislabel_score, suggested_label and class_outlier_score with a new head version (Explore issue_type mislabels, class_outliers). ' +
          'With target objects (or all) it scores the detected objects the same way, objects against objects (Explore entity_type=OBJECTS)',
        params: DatasetIdParams,
        body: LabelErrorsBody,
        response: { 202: TaskAccepted(LabelErrorsStarted), ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const taskId = await deps.labelErrors.start(principalOf(request), request.params.dataset_id, request.body ?? {});
      return reply.code(202).header('location', taskLocation(taskId)).send({ task_id: taskId });
    },
  );
}
