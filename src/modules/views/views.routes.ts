import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../core/errors.js';
import { principalOf } from '../../http/authenticate.js';
import { readFormFields } from '../../http/form-fields.js';
import { DatasetIdParams, errorResponses } from '../../http/schemas.js';
import { presentView } from './views.presenter.js';
import { ViewCreateBody, ViewFiltersQuery, ViewList, ViewParams, ViewPatchBody } from './views.schemas.js';
import type { ViewInput, ViewsService } from './views.service.js';

const SavedViewRef = Type.Ref('SavedView');

export function viewsRoutes(app: FastifyInstance, deps: { views: ViewsService }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { views } = deps;
  const base = '/api/v1/dataset/:dataset_id/views';

  r.post(
    base,
    {
      schema: {
        tags: ['views'],
        summary: 'Save an Explore query as a view: form field `name` (multipart, urlencoded or JSON), the Explore filters as query parameters; monitoring and alerting are on unless the form sets them false',
        consumes: ['multipart/form-data', 'application/x-www-form-urlencoded', 'application/json'],
        form: Type.Object({
          name: Type.String({ minLength: 1, maxLength: 200 }),
          monitoring_enabled: Type.Optional(Type.Boolean({ default: true })),
          alerting_enabled: Type.Optional(Type.Boolean({ default: true })),
          notify_emails: Type.Optional(Type.String({ description: 'One e-mail to alert (JSON takes a list)' })),
        }),
        params: DatasetIdParams,
        querystring: ViewFiltersQuery,
        body: { content: { 'application/json': { schema: ViewCreateBody }, 'application/x-www-form-urlencoded': { schema: ViewCreateBody } } },
        response: { 200: SavedViewRef, ...errorResponses(401, 404, 409, 422) },
      },
    },
    async (request) => {
      const input = request.isMultipart() ? formInput(await readFormFields(request, VIEW_FORM_FIELDS)) : ((request.body ?? {}) as ViewInput);
      return presentView(await views.create(principalOf(request), request.params.dataset_id, request.query, input));
    },
  );

  r.get(
    base,
    {
      schema: {
        tags: ['views'],
        summary: "The dataset's saved views, oldest first, each with what it matches now",
        params: DatasetIdParams,
        response: { 200: ViewList, ...errorResponses(401, 404, 422) },
      },
    },
    async (request) => ({ views: (await views.list(principalOf(request), request.params.dataset_id)).map(presentView) }),
  );

  r.get(
    `${base}/:view_id`,
    {
      schema: { tags: ['views'], summary: 'One saved view', params: ViewParams, response: { 200: SavedViewRef, ...errorResponses(401, 404, 422) } },
    },
    async (request) => presentView(await views.get(principalOf(request), request.params.dataset_id, request.params.view_id)),
  );

  r.patch(
    `${base}/:view_id`,
    {
      schema: {
        tags: ['views'],
        summary: "Rename a view, switch its monitoring and alerting, replace its filters or the users it alerts (creator or the dataset's editors)",
        params: ViewParams,
        body: ViewPatchBody,
        response: { 200: SavedViewRef, ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request) => presentView(await views.update(principalOf(request), request.params.dataset_id, request.params.view_id, request.body)),
  );

  r.delete(
    `${base}/:view_id`,
    {
      schema: {
        tags: ['views'],
        summary: "Delete a view (creator or the dataset's editors); its past notifications stay",
        params: ViewParams,
        response: { 200: Type.Object({ ok: Type.Literal(true) }), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => {
      await views.remove(principalOf(request), request.params.dataset_id, request.params.view_id);
      return { ok: true as const };
    },
  );
}

const BOOLEAN: Record<string, boolean> = { true: true, false: false, '1': true, '0': false };
const VIEW_FORM_FIELDS = ['name', 'monitoring_enabled', 'alerting_enabled', 'notify_emails'] as const;

/** A multipart form's text fields as the JSON body would carry them. */
function formInput(fields: Record<string, string>): ViewInput {
  const input: ViewInput = {};
  for (const [key, value] of Object.entries(fields)) {
    if (key === 'name') input.name = value;
    else if (key === 'notify_emails') input.notify_emails = [value];
    else if (key === 'monitoring_enabled' || key === 'alerting_enabled') {
      const flag = BOOLEAN[value.trim().toLowerCase()];
      if (flag === undefined) throw errors.validation(`${key} must be true or false`);
      input[key] = flag;
    }
  }
  return input;
}
