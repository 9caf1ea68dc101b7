import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../http/authenticate.js';
import { DatasetIdParams, EmptyBody as Empty, TaskAccepted, errorResponses, taskLocation } from '../../http/schemas.js';
import { presentSnapshot } from './snapshots.presenter.js';
import { RestoreParams, SnapshotCreateBody, SnapshotParams, SnapshotPatchBody } from './snapshots.schemas.js';
import type { SnapshotsService } from './snapshots.service.js';

const SnapshotRef = Type.Ref('Snapshot');

/** Spec 4.1. Every route answers 403 on a dataset without snapshot support. */
export function snapshotsRoutes(app: FastifyInstance, deps: { snapshots: SnapshotsService }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const base = '/api/v1/dataset/:dataset_id/snapshot';

  r.get(
    base,
    {
      schema: {
        tags: ['snapshots'],
        summary: "The dataset's snapshots, newest first (soft-deleted ones never appear)",
        params: DatasetIdParams,
        response: { 200: Type.Array(SnapshotRef), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => (await deps.snapshots.list(principalOf(request), request.params.dataset_id)).map(presentSnapshot),
  );

  r.post(
    base,
    {
      schema: {
        tags: ['snapshots'],
        summary: 'Snapshot the dataset as it is now (READY, no data-changing task running); it becomes current, reason manual',
        params: DatasetIdParams,
        body: Type.Union([SnapshotCreateBody, Type.Null()]),
        response: { 200: SnapshotRef, ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request) => presentSnapshot(await deps.snapshots.create(principalOf(request), request.params.dataset_id, request.body ?? {})),
  );

  r.patch(
    `${base}/:snapshot_id`,
    {
      schema: {
        tags: ['snapshots'],
        summary: 'Rename or re-describe a snapshot (name and/or description); its data is unchanged',
        params: SnapshotParams,
        body: SnapshotPatchBody,
        response: { 200: SnapshotRef, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) =>
      presentSnapshot(await deps.snapshots.update(principalOf(request), request.params.dataset_id, request.params.snapshot_id, request.body)),
  );

  r.post(
    `${base}/:snapshot_id/restore`,
    {
      schema: {
        tags: ['snapshots'],
        summary:
          'Restore the dataset to a snapshot (a UUID, or `current`): starts a SNAPSHOT_RESTORE task, the dataset is READ ONLY until it ends READY; 202 with a Location header naming the task',
        params: RestoreParams,
        response: { 202: TaskAccepted(), ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const taskId = await deps.snapshots.restore(principalOf(request), request.params.dataset_id, request.params.snapshot_id);
      return reply.code(202).header('location', taskLocation(taskId)).send();
    },
  );

  r.post(
    `${base}/:snapshot_id/clone`,
    {
      schema: {
        tags: ['snapshots'],
        summary: 'Clone a snapshot into a new dataset "<name> (cloned)" owned by the caller; its SNAPSHOT_CLONE task runs on the new dataset; 202 with a Location header naming the task, whose dataset_id is the new dataset',
        params: SnapshotParams,
        response: { 202: TaskAccepted(), ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { taskId } = await deps.snapshots.clone(principalOf(request), request.params.dataset_id, request.params.snapshot_id);
      return reply.code(202).header('location', taskLocation(taskId)).send();
    },
  );

  r.delete(
    `${base}/:snapshot_id`,
    {
      schema: {
        tags: ['snapshots'],
        summary: 'Soft-delete a snapshot (409 for the current one); clones made from it are unaffected',
        params: SnapshotParams,
        response: { 200: Empty, ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      await deps.snapshots.remove(principalOf(request), request.params.dataset_id, request.params.snapshot_id);
      return reply.code(200).send();
    },
  );
}
