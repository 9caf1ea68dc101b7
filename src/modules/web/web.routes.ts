import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** The app's own paths: the browser may open any of them directly (a bookmark, a reload), and each gets the page. */
export const WEB_PAGES = ['/sign-in', '/datasets', '/datasets/*', '/tasks', '/notifications'];

/** Whether a request to `/` comes from a browser (which asks for HTML) rather than a script (JSON). */
export function wantsPage(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/html');
}

/** The page is never framed by another site (clickjacking) and leaks no path to the links it opens. */
const PAGE_HEADERS = {
  'cache-control': 'no-cache',
  'content-security-policy': "frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

export type PageSender = (reply: FastifyReply) => FastifyReply;

/**
 * Serves the built web app (web/dist): hashed assets cached for good, the page itself never cached so a new build
 * shows at once. Returns the page sender for `/`, or null when the app is not built (the API works without it, and
 * the app's paths answer 503 saying so).
 */
export async function webRoutes(app: FastifyInstance, deps: { dist: string }): Promise<PageSender | null> {
  const indexFile = path.join(deps.dist, 'index.html');
  const page = fs.existsSync(indexFile) ? fs.readFileSync(indexFile) : null;
  const sendPage: PageSender = (reply) => {
    if (!page) return reply.code(503).send({ detail: 'The web app is not built: run npm install (or npm start, which builds it)' });
    return reply
      .type('text/html; charset=utf-8')
      .headers(PAGE_HEADERS)
      .send(page);
  };

  if (page) {
    await app.register(fastifyStatic, { root: path.join(deps.dist, 'assets'), prefix: '/assets/', immutable: true, maxAge: '365d', index: false });
  }
  for (const url of WEB_PAGES) {
    app.get(
      url,
      {
        config: { public: true },
        schema: {
          tags: ['web'],
          summary: 'A page of the web app (HTML); the app signs in and talks to the API itself',
          response: { 200: { description: 'The page', content: { 'text/html': { schema: { type: 'string' } } } } },
        },
      },
      async (_request, reply) => sendPage(reply),
    );
  }
  return page ? sendPage : null;
}
