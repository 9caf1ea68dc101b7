import { SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signClientToken } from '../../src/modules/auth/auth.service.js';
import { type TestServer, type TestUser, call, startTestServer } from '../support/server.js';

let server: TestServer;
let alice: TestUser;

beforeAll(async () => {
  server = await startTestServer({ env: { TOKEN_MAX_LIFETIME_SECONDS: '3600' } });
  alice = await server.createUser();
});
afterAll(() => server?.close());

const me = (token: string | null, headers?: Record<string, string>) => server.api(token, 'GET', '/api/v1/auth/me', undefined, headers);

function sign(secret: string, header: Record<string, unknown>, claims: { sub?: string; iat?: number; exp?: number; iss?: string }) {
  const jwt = new SignJWT({ ...(claims.iss ? { iss: claims.iss } : {}) }).setProtectedHeader({ alg: 'HS256', ...header });
  if (claims.sub) jwt.setSubject(claims.sub);
  if (claims.iat !== undefined) jwt.setIssuedAt(claims.iat);
  if (claims.exp !== undefined) jwt.setExpirationTime(claims.exp);
  return jwt.sign(new TextEncoder().encode(secret));
}

const now = () => Math.floor(Date.now() / 1000);

describe('public routes', () => {
  it('answers /health, /ready and /docs without a token', async () => {
    expect(await server.api(null, 'GET', '/health')).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await server.api(null, 'GET', '/ready')).toMatchObject({ status: 200, body: { status: 'ready' } });
    expect((await server.api(null, 'GET', '/docs/')).status).toBe(200);
  });

  it('documents every route in the OpenAPI document', async () => {
    const doc = (await server.api(null, 'GET', '/docs/json')).body;
    const documented = Object.entries(doc.paths as Record<string, object>).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
    for (const expected of [
      'GET /api/v1/tasks',
      'GET /api/v1/tasks/filters',
      'POST /api/v1/tasks/{task_id}/abort',
      'POST /api/v1/tasks/{task_id}/retry',
      'GET /api/v1/dataset/{dataset_id}',
      'GET /api/v1/datasets',
      'GET /api/v1/ingestion/new_dataset',
      'POST /api/v1/dataset/{dataset_id}/share',
      'PUT /api/v1/manage/{dataset_id}/invite',
      'GET /api/v1/manage/{dataset_id}/share',
      'DELETE /api/v1/manage/{dataset_id}/share',
      'POST /api/v1/auth/session',
      'GET /api/v1/api_credentials',
      'GET /health',
      'GET /ready',
      'GET /metrics',
      'POST /api/v1/ingestion/{dataset_id}/data_files/{trans_id}',
      'POST /api/v1/ingestion/{dataset_id}/process_files/{trans_id}',
      'GET /api/v1/ingestion/{dataset_id}/data_files',
      'PATCH /api/v1/dataset/{dataset_id}',
      'DELETE /api/v1/dataset/{dataset_id}',
      'GET /api/v1/dataset/{dataset_id}/media',
      'GET /api/v1/explore/{dataset_id}',
      'POST /api/v1/dataset/{dataset_id}/add_media',
      'POST /api/v1/dataset/{dataset_id}/reindex',
      'GET /api/v1/process/add_media',
      'POST /api/v1/dataset/{dataset_id}/search-image-similarity',
      'GET /api/v1/dataset/{dataset_id}/media/{media_id}/duplicates',
      'GET /api/v1/dataset/{dataset_id}/media/{media_id}',
      'GET /api/v1/dataset/{dataset_id}/media/{media_id}/{variant}',
      'GET /api/v1/dataset/{dataset_id}/snapshot',
      'POST /api/v1/dataset/{dataset_id}/snapshot',
      'PATCH /api/v1/dataset/{dataset_id}/snapshot/{snapshot_id}',
      'DELETE /api/v1/dataset/{dataset_id}/snapshot/{snapshot_id}',
      'POST /api/v1/dataset/{dataset_id}/snapshot/{snapshot_id}/restore',
      'POST /api/v1/dataset/{dataset_id}/snapshot/{snapshot_id}/clone',
      'GET /api/v1/enrichment/{dataset_id}/list_models',
      'GET /api/v1/enrichment/{dataset_id}/context',
      'POST /api/v1/dataset/{dataset_id}/enrich_dataset',
      'GET /api/v1/dataset/{dataset_id}/export_context_async',
      'POST /api/v1/dataset/{dataset_id}/export_entities_async',
      'GET /api/v1/dataset/{dataset_id}/export_status',
      'GET /api/v1/exports/{export_id}/download',
      'POST /api/v1/dataset/{dataset_id}/media/tags',
      'POST /api/v1/dataset/{dataset_id}/media/tags/remove',
      'PUT /api/v1/dataset/{dataset_id}/media/label',
      'PUT /api/v1/dataset/{dataset_id}/objects/label',
      'GET /api/v1/dataset/{dataset_id}/tags',
      'GET /api/v1/dataset/{dataset_id}/labels',
      'POST /api/v1/dataset/{dataset_id}/labels/propagate',
      'POST /api/v1/dataset/{dataset_id}/custom_metadata',
      'GET /api/v1/dataset/{dataset_id}/custom_metadata/schema',
      'GET /api/v1/dataset/{dataset_id}/custom_metadata/imports/{task_id}',
    ]) {
      expect(documented).toContain(expected);
    }
    expect(server.loupe.app!.hasRoute({ method: 'GET', url: '/api/v1/tasks' })).toBe(true);
  });

  it('answers unknown routes with 404 and a detail', async () => {
    expect(await server.api(alice.token, 'GET', '/api/v1/nothing-here')).toMatchObject({ status: 404, body: { detail: expect.any(String) } });
  });
});

describe('bearer tokens signed by the client', () => {
  it('accepts a token signed as the SDK clients sign it, with compact JSON', async () => {
    const res = await me(alice.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ user_id: alice.user_id, email: alice.email });
    expect(res.text).not.toMatch(/\s/);
  });

  it('401 without a token', async () => {
    expect(await me(null)).toMatchObject({ status: 401, body: { detail: 'Not authenticated' } });
  });

  it('401 for a header that is not Bearer', async () => {
    expect(await me(null, { authorization: `Basic ${alice.api_key}` })).toMatchObject({ status: 401, body: { detail: expect.stringMatching(/Bearer/) } });
  });

  it('401 for garbage', async () => {
    expect(await me('not.a.jwt')).toMatchObject({ status: 401, body: { detail: 'Invalid token: malformed token' } });
  });

  it('401 for alg none', async () => {
    const token = new UnsecuredJWT({ sub: alice.api_key, iss: 'sdk' }).setIssuedAt().setExpirationTime('5m').encode();
    const res = await me(token);
    expect(res.status).toBe(401);
    expect(res.body.detail).toMatch(/algorithm none is not accepted/);
  });

  it('401 for an unknown key', async () => {
    const token = await sign(alice.api_secret, { kid: 'lk_unknown' }, { sub: 'lk_unknown', iat: now(), exp: now() + 60 });
    expect(await me(token)).toMatchObject({ status: 401, body: { detail: 'Invalid token: unknown or revoked api_key' } });
  });

  it('401 for a wrong signature', async () => {
    const token = await sign('not-the-secret', { kid: alice.api_key }, { sub: alice.api_key, iat: now(), exp: now() + 60 });
    expect(await me(token)).toMatchObject({ status: 401, body: { detail: 'Invalid token: signature verification failed' } });
  });

  it('401 for an expired token', async () => {
    const token = await sign(alice.api_secret, { kid: alice.api_key }, { sub: alice.api_key, iat: now() - 700, exp: now() - 100 });
    expect(await me(token)).toMatchObject({ status: 401, body: { detail: 'Invalid token: token has expired' } });
  });

  it('401 for a token valid longer than the configured maximum', async () => {
    const token = await sign(alice.api_secret, { kid: alice.api_key }, { sub: alice.api_key, iat: now(), exp: now() + 7200 });
    const res = await me(token);
    expect(res.status).toBe(401);
    expect(res.body.detail).toMatch(/exceeds the maximum of 3600 s/);
  });

  it('401 without exp', async () => {
    const token = await sign(alice.api_secret, { kid: alice.api_key }, { sub: alice.api_key, iat: now() });
    expect((await me(token)).status).toBe(401);
  });

  it('401 when sub is not the key in kid', async () => {
    const token = await sign(alice.api_secret, { kid: alice.api_key }, { sub: 'someone-else', iat: now(), exp: now() + 60 });
    expect(await me(token)).toMatchObject({ status: 401, body: { detail: 'Invalid token: sub must equal the api_key in kid' } });
  });

  it('401 once the key is revoked', async () => {
    const bob = await server.createUser();
    expect((await me(bob.token)).status).toBe(200);
    expect(await server.loupe.container.services.auth.revokeKey(bob.api_key)).toBe(true);
    expect((await me(bob.token)).status).toBe(401);
  });

  it('401 once a token that was accepted passes its exp and the clock tolerance', async () => {
    const carol = await server.createUser();
    const token = await sign(carol.api_secret, { kid: carol.api_key }, { sub: carol.api_key, iat: now() - 40, exp: now() - 25 });
    expect((await me(token)).status).toBe(200);
    expect((await me(token)).status).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 6_000 });
    try {
      expect(await me(token)).toMatchObject({ status: 401, body: { detail: 'Invalid token: token has expired' } });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('session cookie', () => {
  it('signs in with the key pair, is accepted instead of a bearer token, and signs out', async () => {
    const login = await server.api(null, 'POST', '/api/v1/auth/session', { api_key: alice.api_key, api_secret: alice.api_secret });
    expect(login.status).toBe(200);
    const setCookie = login.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^loupe_session=[^;]+;/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    const cookie = setCookie.split(';')[0]!;

    expect(await me(null, { cookie })).toMatchObject({ status: 200, body: { email: alice.email } });
    expect((await server.api(null, 'GET', '/api/v1/tasks', undefined, { cookie })).status).toBe(200);

    expect((await server.api(null, 'DELETE', '/api/v1/auth/session', undefined, { cookie })).status).toBe(204);
    expect((await me(null, { cookie })).status).toBe(401);
  });

  it('accepts the same session under the cookie name SESSION, as the hosted service\'s docs send it', async () => {
    const login = await server.api(null, 'POST', '/api/v1/auth/session', { api_key: alice.api_key, api_secret: alice.api_secret });
    const session = /^loupe_session=([^;]+);/.exec(login.headers.get('set-cookie')!)![1]!;
    const cookie = `SESSION=${session}`;

    expect(await me(null, { cookie })).toMatchObject({ status: 200, body: { user_id: alice.user_id, email: alice.email } });
    expect((await server.api(null, 'GET', '/api/v1/tasks', undefined, { cookie })).status).toBe(200);
    expect((await server.api(null, 'GET', '/api/v1/api_credentials', undefined, { cookie })).body.email).toBe(alice.email);
    expect((await me(null, { cookie: 'SESSION=not-a-session' })).status).toBe(401);

    expect((await server.api(null, 'DELETE', '/api/v1/auth/session', undefined, { cookie })).status).toBe(204);
    expect((await me(null, { cookie })).status).toBe(401);
    expect((await me(null, { cookie: `loupe_session=${session}` })).status).toBe(401);
  });

  it('401 for a wrong secret', async () => {
    const res = await server.api(null, 'POST', '/api/v1/auth/session', { api_key: alice.api_key, api_secret: 'nope' });
    expect(res).toMatchObject({ status: 401, body: { detail: 'Invalid api_key or api_secret' } });
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('422 when a field is missing', async () => {
    const res = await server.api(null, 'POST', '/api/v1/auth/session', { api_key: alice.api_key });
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/api_secret/);
  });
});

describe('GET /api/v1/api_credentials', () => {
  it('issues a new working key pair and shows the secret once', async () => {
    const res = await server.api(alice.token, 'GET', '/api/v1/api_credentials');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ user_id: alice.user_id, email: alice.email, api_key: expect.stringMatching(/^lk_/), api_secret: expect.any(String) });
    expect(res.body.api_key).not.toBe(alice.api_key);
    const token = await signClientToken(res.body.api_key, res.body.api_secret, 300);
    expect(await me(token)).toMatchObject({ status: 200, body: { user_id: alice.user_id } });
  });
});

describe('single-user local mode (LOUPE_AUTH=none)', () => {
  let local: TestServer;
  beforeAll(async () => {
    local = await startTestServer({ env: { LOUPE_AUTH: 'none', HOST: '127.0.0.1' } });
  }, 120_000);
  afterAll(() => local?.close());

  it('a request without credentials acts as the one local user, the same user every time', async () => {
    const first = await local.api(null, 'GET', '/api/v1/auth/me');
    expect(first).toMatchObject({ status: 200, body: { user_id: expect.any(String), email: 'admin@loupe.local' } });
    expect((await local.api(null, 'GET', '/api/v1/auth/me')).body).toEqual(first.body);
    expect((await local.loupe.container.services.auth.localUser()).userId).toBe(first.body.user_id);

    const created = await local.api(null, 'GET', '/api/v1/ingestion/new_dataset?dataset_name=on%20my%20desk');
    expect(created).toMatchObject({ status: 200, body: { dataset_id: expect.any(String) } });
    const datasets = (await local.api(null, 'GET', '/api/v1/datasets')).body as Array<{ id: string; display_name: string }>;
    expect(datasets.map((d) => [d.id, d.display_name])).toEqual([[created.body.dataset_id, 'on my desk']]);
  });

  it('still authenticates a request that carries credentials, and refuses bad ones with 401', async () => {
    const bob = await local.createUser();
    expect(await local.api(bob.token, 'GET', '/api/v1/auth/me')).toMatchObject({ status: 200, body: { user_id: bob.user_id, email: bob.email } });
    expect((await local.api(bob.token, 'GET', '/api/v1/datasets')).body).toEqual([]);
    const bad = await local.api('garbage', 'GET', '/api/v1/auth/me');
    expect(bad.status).toBe(401);
    expect(bad.body.detail).toEqual(expect.any(String));
    expect((await local.api(null, 'GET', '/api/v1/auth/me', undefined, { authorization: 'Basic abc' })).status).toBe(401);
    expect((await local.api(null, 'GET', '/api/v1/auth/me', undefined, { cookie: 'SESSION=unknown' })).status).toBe(401);
  });

  it('is off by default: the same request without credentials is a 401', async () => {
    expect((await server.api(null, 'GET', '/api/v1/auth/me')).status).toBe(401);
  });
});
