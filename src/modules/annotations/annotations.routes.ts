import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../http/authenticate.js';
import { DatasetIdParams, TaskAccepted, errorResponses, taskLocation } from '../../http/schemas.js';
import {
  EDIT_BODY_LIMIT,
  EditResult,
  LabelEditBody,
  LabelList,
  ObjectLabelBody,
  PropagateBody,
  PropagationPlan,
  TagList,
  TagsEditBody,
  TaskStarted,
} from './annotations.schemas.js';
import type { AnnotationsService, MediaSelectionInput } from './annotations.service.js';

const selectionOf = (body: MediaSelectionInput): MediaSelectionInput => ({ media_ids: body.media_ids, cluster_ids: body.cluster_ids, query: body.query });

/** Tags and labels: edits need editor access; each is a new version of the dataset (409 while a restore runs). */
export function annotationsRoutes(app: FastifyInstance, deps: { annotations: AnnotationsService }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { annotations } = deps;
  const base = '/api/v1/dataset/:dataset_id';
  const edit = { 200: EditResult, ...errorResponses(401, 403, 404, 409, 422) };

  r.post(
    `${base}/media/tags`,
    {
      bodyLimit: EDIT_BODY_LIMIT,
      schema: {
        tags: ['annotations'],
        summary: 'Add tags to media chosen by media_ids, cluster_ids or an Explore query; a new version of the dataset',
        params: DatasetIdParams,
        body: TagsEditBody,
        response: edit,
      },
    },
    async (request) => annotations.addTags(principalOf(request), request.params.dataset_id, request.body.tags, selectionOf(request.body)),
  );

  r.post(
    `${base}/media/tags/remove`,
    {
      bodyLimit: EDIT_BODY_LIMIT,
      schema: { tags: ['annotations'], summary: 'Remove tags from the chosen media; a new version of the dataset', params: DatasetIdParams, body: TagsEditBody, response: edit },
    },
    async (request) => annotations.removeTags(principalOf(request), request.params.dataset_id, request.body.tags, selectionOf(request.body)),
  );

  r.put(
    `${base}/media/label`,
    {
      bodyLimit: EDIT_BODY_LIMIT,
      schema: { tags: ['annotations'], summary: 'Set (or, with null, remove) the label of the chosen media; a new version', params: DatasetIdParams, body: LabelEditBody, response: edit },
    },
    async (request) => annotations.setLabel(principalOf(request), request.params.dataset_id, request.body.label, selectionOf(request.body)),
  );

  r.put(
    `${base}/objects/label`,
    {
      schema: {
        tags: ['annotations'],
        summary: "Set the class of detected objects (null restores the detected one; it is kept as detected_label); a new version",
        params: DatasetIdParams,
        body: ObjectLabelBody,
        response: { 200: EditResult, ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request) => annotations.setObjectLabel(principalOf(request), request.params.dataset_id, request.body.object_ids, request.body.label),
  );

  r.get(
    `${base}/tags`,
    { schema: { tags: ['annotations'], summary: "The dataset's tags with how many media carry each, most used first", params: DatasetIdParams, response: { 200: TagList, ...errorResponses(401, 404) } } },
    async (request) => annotations.tags(principalOf(request), request.params.dataset_id),
  );

  r.get(
    `${base}/labels`,
    { schema: { tags: ['annotations'], summary: "The dataset's labels with counts, and how many media have none", params: DatasetIdParams, response: { 200: LabelList, ...errorResponses(401, 404) } } },
    async (request) => annotations.labels(principalOf(request), request.params.dataset_id),
  );

  r.post(
    `${base}/labels/propagate`,
    {
      schema: {
        tags: ['annotations'],
        summary:
          "Give unlabelled media their cluster's most frequent label at a threshold (level): dry_run answers 200 with the counts; " +
          'otherwise a LABEL_PROPAGATION task starts (202 {task_id}), which blocks snapshot creation while it runs',
        params: DatasetIdParams,
        body: PropagateBody,
        response: { 200: PropagationPlan, 202: TaskAccepted(TaskStarted), ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      if (request.body.dry_run) return annotations.propagationPlan(principal, request.params.dataset_id, request.body.threshold);
      const taskId = await annotations.startPropagation(principal, request.params.dataset_id, request.body.threshold);
      return reply.code(202).header('location', taskLocation(taskId)).send({ task_id: taskId });
    },
  );
}
