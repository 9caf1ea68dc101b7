import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from '../core/errors.js';
import type { AuthService, Principal } from '../modules/auth/auth.service.js';

export const SESSION_COOKIE = 'loupe_session';
/** The cookie name the hosted service's docs send (`Cookie: SESSION=<session>`); it carries the same session. */
export const DOCS_SESSION_COOKIE = 'SESSION';

/** The session a request carries, under either cookie name. */
export function sessionCookie(request: FastifyRequest): string | undefined {
  return request.cookies[SESSION_COOKIE] || request.cookies[DOCS_SESSION_COOKIE] || undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** Routes that answer without a signed-in caller (health, docs, sign-in). */
    public?: boolean;
  }
}

/** Every route needs a bearer JWT or the session cookie unless it is marked `config.public` (or LOUPE_AUTH=none). */
export function registerAuthentication(app: FastifyInstance, auth: AuthService): void {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.public || !request.routeOptions.url) return;
    request.principal = await authenticate(request, auth);
  });
}

export async function authenticate(request: FastifyRequest, auth: AuthService): Promise<Principal> {
  const header = request.headers.authorization;
  if (header) {
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match) return auth.rejectMalformedHeader(request.ip, 'expected "Authorization: Bearer <token>"');
    return auth.verifyToken(match[1]!, request.ip);
  }
  const cookie = sessionCookie(request);
  if (cookie) return auth.verifySession(cookie, request.ip);
  const local = auth.localPrincipal();
  if (local) return local;
  throw errors.notAuthenticated();
}

/** The signed-in caller of a route that is not public. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw errors.notAuthenticated();
  return request.principal;
}
