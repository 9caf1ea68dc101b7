import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from '../support/server.js';

const run = promisify(execFile);
const version = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string }).version;

// The server logs into this array at debug, so a test sees each line and its level.
const lines: Array<{ level: number; msg: string; req?: { method: string; url: string }; res?: { statusCode: number } }> = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    done();
  },
});

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ log: pino({ level: 'debug' }, sink) });
}, 120_000);
afterAll(() => server?.close());

const requestLines = (url: string) => lines.filter((l) => l.req?.url === url);

describe('what a newcomer meets first', () => {
  it('GET / points to the API reference', async () => {
    const res = await server.api(null, 'GET', '/');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name: 'Loupe', version, docs: '/docs', openapi: '/docs/json', health: '/health' });
    expect((await server.api(null, 'GET', '/docs/json')).status).toBe(200);
  });

  it('logs one line per request: successful reads at debug, the rest at info', async () => {
    await server.api(null, 'GET', '/health');
    await server.api(null, 'GET', '/no-such-route');
    await server.api(null, 'POST', '/api/v1/auth/session', { api_key: 'lk_nobody', api_secret: 'x' });
    expect(requestLines('/health')).toEqual([expect.objectContaining({ level: 20, msg: 'request', res: { statusCode: 200 } })]);
    expect(requestLines('/no-such-route')).toEqual([expect.objectContaining({ level: 30, msg: 'request', res: { statusCode: 404 } })]);
    expect(requestLines('/api/v1/auth/session')).toEqual([expect.objectContaining({ level: 30, msg: 'request', req: expect.objectContaining({ method: 'POST' }) })]);
    expect(lines.filter((l) => l.msg === 'incoming request' || l.msg === 'request completed')).toEqual([]);
  });
});

describe('npm run openapi', () => {
  it('writes the OpenAPI document the server serves and the client types (the SDK’s, which the web app re-exports), and the committed copies are up to date', async () => {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-')), 'openapi.json');
    const typesOut = path.join(path.dirname(out), 'schema.d.ts');
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/openapi.ts', out, typesOut]);
    expect(stdout).toMatch(/^wrote .*openapi\.json \(\d+ paths\)\nwrote .*schema\.d\.ts\n$/);
    expect(fs.readFileSync(typesOut, 'utf8')).toBe(fs.readFileSync('sdk/src/schema.d.ts', 'utf8'));
    const written = JSON.parse(fs.readFileSync(out, 'utf8'));
    const served = (await server.api(null, 'GET', '/docs/json')).body;
    expect(Object.keys(written.paths).sort()).toEqual(Object.keys(served.paths).sort());
    expect(fs.readFileSync(out, 'utf8')).toBe(fs.readFileSync('openapi.json', 'utf8'));
    fs.rmSync(path.dirname(out), { recursive: true, force: true });
  }, 60_000);
});
