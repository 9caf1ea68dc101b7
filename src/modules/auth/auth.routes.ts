import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { SESSION_COOKIE, principalOf, sessionCookie } from '../../http/authenticate.js';
import { errorResponses } from '../../http/schemas.js';
import { IssuedCredentials, Me, SessionRequest } from './auth.schemas.js';
import type { AuthService } from './auth.service.js';

export function authRoutes(app: FastifyInstance, deps: { auth: AuthService; secureCookies: boolean }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { auth } = deps;

  r.post(
    '/api/v1/auth/session',
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with an API key pair; sets an HttpOnly session cookie accepted by every route (also when sent as `SESSION`)',
        body: SessionRequest,
        response: { 200: Me, ...errorResponses(401, 422, 429) },
      },
    },
    async (request, reply) => {
      const session = await auth.startSession(request.body.api_key, request.body.api_secret, request.ip);
      reply.setCookie(SESSION_COOKIE, session.cookie, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: deps.secureCookies,
        maxAge: session.maxAge,
      });
      return { user_id: session.principal.userId, email: session.principal.email };
    },
  );

  r.delete(
    '/api/v1/auth/session',
    { config: { public: true }, schema: { tags: ['auth'], summary: 'Sign out: ends the session cookie', response: { 204: { type: 'null' } } } },
    async (request, reply) => {
      const cookie = sessionCookie(request);
      if (cookie) await auth.endSession(cookie);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return reply.code(204).send();
    },
  );

  r.get(
    '/api/v1/auth/me',
    { schema: { tags: ['auth'], summary: 'The signed-in user', response: { 200: Me, ...errorResponses(401) } } },
    async (request) => {
      const me = principalOf(request);
      return { user_id: me.userId, email: me.email };
    },
  );

  r.get(
    '/api/v1/api_credentials',
    {
      schema: {
        tags: ['auth'],
        summary: 'Issue a new API key pair to the signed-in user; the secret is shown only in this response',
        response: { 200: IssuedCredentials, ...errorResponses(401) },
      },
    },
    async (request) => auth.issueKey(principalOf(request)),
  );
}
