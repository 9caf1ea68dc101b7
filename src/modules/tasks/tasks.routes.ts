import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../http/authenticate.js';
import { errorResponses } from '../../http/schemas.js';
import { presentTask } from './tasks.presenter.js';
import { TaskFilterOptions, TaskFiltersQuery, TaskIdParams, TaskList, TaskListQuery } from './tasks.schemas.js';
import type { TasksService } from './tasks.service.js';

export function tasksRoutes(app: FastifyInstance, deps: { tasks: TasksService }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { tasks } = deps;

  r.get(
    '/api/v1/tasks',
    {
      schema: {
        tags: ['tasks'],
        summary: 'Tasks on every dataset the caller can access, newest first by default',
        querystring: TaskListQuery,
        response: { 200: TaskList, ...errorResponses(401, 422) },
      },
    },
    async (request) => {
      const { rows, total, page, pageSize } = await tasks.list(principalOf(request), request.query);
      return { tasks: rows.map(presentTask), total, page, page_size: pageSize };
    },
  );

  r.get(
    '/api/v1/tasks/filters',
    {
      schema: {
        tags: ['tasks'],
        summary: 'Values the task list can be filtered by, within an optional start-time range',
        querystring: TaskFiltersQuery,
        response: { 200: TaskFilterOptions, ...errorResponses(401, 422) },
      },
    },
    async (request) => tasks.filters(principalOf(request), request.query),
  );

  r.get(
    '/api/v1/tasks/:task_id',
    {
      schema: {
        tags: ['tasks'],
        summary: 'One task, as a row of the task list: where the Location of a 202 that started it points (404 on a dataset the caller cannot see)',
        params: TaskIdParams,
        response: { 200: Type.Ref('Task'), ...errorResponses(401, 404, 422) },
      },
    },
    async (request) => presentTask(await tasks.get(principalOf(request), request.params.task_id)),
  );

  r.post(
    '/api/v1/tasks/:task_id/abort',
    {
      schema: {
        tags: ['tasks'],
        summary: 'Abort a running DATASET_CREATION task (409 once final or committing)',
        params: TaskIdParams,
        response: { 200: Type.Ref('Task'), ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request) => presentTask(await tasks.abort(principalOf(request), request.params.task_id)),
  );

  r.post(
    '/api/v1/tasks/:task_id/retry',
    {
      schema: {
        tags: ['tasks'],
        summary: 'Retry a FAILED or ABORTED DATASET_CREATION task with its original configuration',
        params: TaskIdParams,
        response: { 200: Type.Ref('Task'), ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) => presentTask(await tasks.retry(principalOf(request), request.params.task_id)),
  );
}
