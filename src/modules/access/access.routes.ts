import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../http/authenticate.js';
import { readFormFields } from '../../http/form-fields.js';
import { SHARED_ROLES } from '../../core/permissions.js';
import { DatasetIdParams, StringEnum, errorResponses } from '../../http/schemas.js';
import { InviteBody, RevokeQuery } from './access.schemas.js';
import type { AccessService } from './access.service.js';

export function accessRoutes(app: FastifyInstance, deps: { access: AccessService }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { access } = deps;
  const entry = Type.Ref('AccessEntry');

  r.post(
    '/api/v1/dataset/:dataset_id/share',
    {
      schema: {
        tags: ['access'],
        summary: 'Share a dataset: form fields `user_email` and optional `role` (viewer, the default, or editor)',
        consumes: ['multipart/form-data', 'application/x-www-form-urlencoded', 'application/json'],
        form: Type.Object({
          user_email: Type.String({ minLength: 1, description: 'Who to share with' }),
          role: Type.Optional(StringEnum(SHARED_ROLES, { default: 'viewer' })),
        }),
        params: DatasetIdParams,
        response: { 200: entry, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) => {
      const fields = await readFormFields(request);
      return access.share(principalOf(request), request.params.dataset_id, fields.user_email, fields.role);
    },
  );

  r.put(
    '/api/v1/manage/:dataset_id/invite',
    {
      schema: {
        tags: ['access'],
        summary: 'Share a dataset with a user by e-mail, as viewer (default) or editor',
        params: DatasetIdParams,
        body: InviteBody,
        response: { 200: entry, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) =>
      access.share(principalOf(request), request.params.dataset_id, request.body.grant_to_user_email, request.body.role),
  );

  r.get(
    '/api/v1/manage/:dataset_id/share',
    {
      schema: {
        tags: ['access'],
        summary: 'Who has access: the owner first, then shared users',
        params: DatasetIdParams,
        response: { 200: Type.Object({ users: Type.Array(entry) }), ...errorResponses(401, 404, 422) },
      },
    },
    async (request) => ({ users: await access.list(principalOf(request), request.params.dataset_id) }),
  );

  r.delete(
    '/api/v1/manage/:dataset_id/share',
    {
      schema: {
        tags: ['access'],
        summary: "Revoke a user's shared access",
        params: DatasetIdParams,
        querystring: RevokeQuery,
        response: { 204: { type: 'null' }, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await access.revoke(principalOf(request), request.params.dataset_id, request.query.user_email);
      return reply.code(204).send();
    },
  );
}
