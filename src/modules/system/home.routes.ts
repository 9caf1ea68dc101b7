import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';

const Home = Type.Object({
  name: Type.Literal('Loupe'),
  version: Type.String(),
  docs: Type.Literal('/docs'),
  openapi: Type.Literal('/docs/json'),
  health: Type.Literal('/health'),
});

/** `GET /`: where a newcomer's browser lands; points to the API reference (the web app will take this route over). */
export function homeRoutes(app: FastifyInstance, deps: { version: string }): void {
  app.get(
    '/',
    {
      config: { public: true },
      schema: { tags: ['system'], summary: 'Where to start: links to the API reference', response: { 200: Home } },
    },
    async () => ({ name: 'Loupe' as const, version: deps.version, docs: '/docs' as const, openapi: '/docs/json' as const, health: '/health' as const }),
  );
}
