import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { type PageSender, wantsPage } from '../web/web.routes.js';

const Home = Type.Object({
  name: Type.Literal('Loupe'),
  version: Type.String(),
  docs: Type.Literal('/docs'),
  openapi: Type.Literal('/docs/json'),
  health: Type.Literal('/health'),
});

/** `GET /`: a browser gets the web app; a script (no `text/html` in Accept) the links to the API reference. */
export function homeRoutes(app: FastifyInstance, deps: { version: string; sendPage: PageSender | null }): void {
  app.get(
    '/',
    {
      config: { public: true },
      schema: { tags: ['system'], summary: 'Where to start: the web app for a browser, links to the API reference for a script', response: { 200: Home } },
    },
    async (request, reply) => {
      if (deps.sendPage && wantsPage(request)) return deps.sendPage(reply);
      return { name: 'Loupe' as const, version: deps.version, docs: '/docs' as const, openapi: '/docs/json' as const, health: '/health' as const };
    },
  );
}
