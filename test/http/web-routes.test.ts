import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { webRoutes } from '../../src/modules/web/web.routes.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-web-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('web routes', () => {
  it('answer 503 with a detail on the app paths when the app is not built, and give no page sender for /', async () => {
    const app = Fastify();
    const sendPage = await webRoutes(app, { dist: tempDir() });
    expect(sendPage).toBeNull();
    const res = await app.inject({ method: 'GET', url: '/datasets/abc', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ detail: 'The web app is not built: run npm install (or npm start, which builds it)' });
    expect((await app.inject({ method: 'GET', url: '/assets/index.js' })).statusCode).toBe(404);
    await app.close();
  });

  it('serve the built page at every app path and the hashed assets for good', async () => {
    const dist = tempDir();
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    fs.writeFileSync(path.join(dist, 'assets', 'index-abc.js'), 'console.log(1)');
    const app = Fastify();
    expect(await webRoutes(app, { dist })).toBeTypeOf('function');
    for (const url of ['/sign-in', '/datasets', '/datasets/1/media/2', '/tasks', '/notifications?unread=1']) {
      const res = await app.inject({ method: 'GET', url });
      expect([url, res.statusCode, res.headers['content-type'], res.body]).toEqual([url, 200, 'text/html; charset=utf-8', '<!doctype html><div id="root"></div>']);
    }
    const asset = await app.inject({ method: 'GET', url: '/assets/index-abc.js' });
    expect([asset.statusCode, asset.headers['cache-control'], asset.body]).toEqual([200, 'public, max-age=31536000, immutable', 'console.log(1)']);
    await app.close();
  });
});
