// Writes openapi.json at the repository root (or the path given) from the route schemas: `npm run openapi`.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import pino from 'pino';
import { buildApp } from '../src/app.js';
import type { Services } from '../src/container.js';

// Building routes calls no service: a stub whose every property is itself stands in for them, so no database starts.
const stub: unknown = new Proxy(() => stub, { get: (_target, key) => (key === 'then' ? undefined : stub), apply: () => undefined });

const root = new URL('../', import.meta.url);
const { version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { version: string };
const app = await buildApp({
  log: pino({ level: 'silent' }),
  services: stub as Services,
  checkDatabase: async () => {},
  metrics: { taskTotals: async () => [] },
  publicUrl: null,
  version,
  processRoutes: true,
});
await app.ready();
const document = app.swagger() as { paths?: object };
const out = process.argv[2] ?? fileURLToPath(new URL('openapi.json', root));
writeFileSync(out, `${JSON.stringify(document, null, 2)}\n`);
await app.close();
process.stdout.write(`wrote ${out} (${Object.keys(document.paths ?? {}).length} paths)\n`);

// The typed clients' types come from the same document, so a changed route shows in their type checks: the SDK's
// (`loupe/sdk`), which the web app re-exports (web/src/api/schema.d.ts).
const typesOut = process.argv[3] ?? fileURLToPath(new URL('sdk/src/schema.d.ts', root));
const header = '// Generated from openapi.json by `npm run openapi`: do not edit.\n';
writeFileSync(typesOut, header + astToString(await openapiTS(JSON.stringify(document))));
process.stdout.write(`wrote ${typesOut}\n`);
