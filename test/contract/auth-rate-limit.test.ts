import http from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signClientToken } from '../../src/modules/auth/auth.service.js';
import { type ApiResponse, type TestServer, startTestServer } from '../support/server.js';

// The server does not trust X-Forwarded-For, so each test sends from a loopback address of its own (Linux answers on
// all of 127.0.0.0/8): the address limit is tested with that one address and the key limit with several keys from it,
// and no test has to wait for the failures of the one before it to leave the window. Where only 127.0.0.1 answers
// (macOS without an alias), every test sends from it and first waits out the window instead.
const KEY_LIMIT = 3;
const ADDRESS_LIMIT = 8;
const WINDOW_SECONDS = 2;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    env: { AUTH_FAILURE_LIMIT: String(KEY_LIMIT), AUTH_FAILURE_ADDRESS_LIMIT: String(ADDRESS_LIMIT), AUTH_FAILURE_WINDOW_SECONDS: String(WINDOW_SECONDS) },
  });
  agent = new http.Agent({ localAddress: '127.0.0.2' } as http.AgentOptions);
  ownAddresses = await send(null, 'GET', '/health').then(
    () => true,
    () => false,
  );
});
afterAll(() => server?.close());
let ownAddresses = false;
let addresses = 10;
let agent: http.Agent;
beforeEach(async () => {
  if (!ownAddresses) await pause(WINDOW_SECONDS * 1000 + 200);
  agent = new http.Agent({ keepAlive: true, localAddress: ownAddresses ? `127.0.0.${addresses++}` : '127.0.0.1' } as http.AgentOptions);
  return () => agent.destroy();
});

/** A request from this test's address, answered as server.api answers. */
function send(token: string | null, method: string, route: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const head: Record<string, string> = { ...headers };
  if (token) head.authorization = `Bearer ${token}`;
  if (payload !== undefined) head['content-type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const req = http.request(`${server.url}${route}`, { method, headers: head, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        const answered = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') answered.set(name, value);
        let parsed: unknown;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode!, body: parsed, text, headers: answered });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const signIn = (api_key: string, api_secret: string) => send(null, 'POST', '/api/v1/auth/session', { api_key, api_secret });
const me = (token: string) => send(token, 'GET', '/api/v1/auth/me');
const WRONG = { status: 401, body: { detail: 'Invalid api_key or api_secret' } };

function expectTooMany(res: ApiResponse): void {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
  expect(res.body).toEqual({ detail: `Too many failed authentication attempts; retry in ${retryAfter} s` });
}

describe('failed sign-ins', () => {
  it('answers 429 with Retry-After once an api_key has failed the limit, even with the right secret', async () => {
    const alice = await server.createUser();
    for (let i = 0; i < KEY_LIMIT; i++) expect(await signIn(alice.api_key, 'wrong')).toMatchObject(WRONG);
    expectTooMany(await signIn(alice.api_key, 'wrong'));
    expectTooMany(await signIn(alice.api_key, alice.api_secret));
  });

  it('counts each api_key on its own', async () => {
    const alice = await server.createUser();
    const bob = await server.createUser();
    for (let i = 0; i < KEY_LIMIT; i++) expect(await signIn(alice.api_key, 'wrong')).toMatchObject(WRONG);
    expectTooMany(await signIn(alice.api_key, 'wrong'));
    expect(await signIn(bob.api_key, 'wrong')).toMatchObject(WRONG);
    expect(await signIn(bob.api_key, bob.api_secret)).toMatchObject({ status: 200, body: { email: bob.email } });
  });

  it('answers 429 once the address has failed its limit, whatever the api_key', async () => {
    const carol = await server.createUser();
    for (let i = 0; i < ADDRESS_LIMIT; i++) expect(await signIn(`lk_unknown_${i}`, 'wrong')).toMatchObject(WRONG);
    expectTooMany(await signIn('lk_unknown_next', 'wrong'));
    expectTooMany(await signIn(carol.api_key, carol.api_secret));
  });

  it('lets no more than the limit of a parallel burst be checked', async () => {
    const alice = await server.createUser();
    // Open the connections first, so that the burst reaches the server at once.
    await Promise.all(Array.from({ length: 30 }, () => send(null, 'GET', '/health')));
    const answers = await Promise.all(Array.from({ length: 30 }, () => signIn(alice.api_key, 'wrong')));
    expect(answers.filter((a) => a.status === 401)).toHaveLength(KEY_LIMIT);
    for (const refused of answers.filter((a) => a.status !== 401)) expectTooMany(refused);
  });

  it('never counts valid sign-ins', async () => {
    const alice = await server.createUser();
    for (let i = 0; i < ADDRESS_LIMIT + 2; i++) expect((await signIn(alice.api_key, alice.api_secret)).status).toBe(200);
    for (let i = 0; i < KEY_LIMIT; i++) expect(await signIn(alice.api_key, 'wrong')).toMatchObject(WRONG);
    expectTooMany(await signIn(alice.api_key, 'wrong'));
  });

  it('lets attempts through again once the window has passed', async () => {
    const alice = await server.createUser();
    for (let i = 0; i < KEY_LIMIT; i++) expect(await signIn(alice.api_key, 'wrong')).toMatchObject(WRONG);
    const refused = await signIn(alice.api_key, alice.api_secret);
    expectTooMany(refused);
    await pause(Number(refused.headers.get('retry-after')) * 1000 + 200);
    expect(await signIn(alice.api_key, alice.api_secret)).toMatchObject({ status: 200, body: { email: alice.email } });
  });
});

describe('bad tokens', () => {
  it('answers 429 once an api_key has sent the limit of bad tokens; other keys and valid tokens pass', async () => {
    const alice = await server.createUser();
    const bob = await server.createUser();
    const forged = await signClientToken(alice.api_key, 'not-her-secret', 600);
    for (let i = 0; i < KEY_LIMIT; i++) {
      expect(await me(forged)).toMatchObject({ status: 401, body: { detail: 'Invalid token: signature verification failed' } });
    }
    expectTooMany(await me(forged));
    expectTooMany(await me(alice.token));
    for (let i = 0; i < ADDRESS_LIMIT; i++) expect((await me(bob.token)).status).toBe(200);
    expect(await me(bob.token)).toMatchObject({ status: 200, body: { email: bob.email } });
  });

  it('answers 429 once the address has sent the limit of bad tokens, then passes again after the window', async () => {
    const alice = await server.createUser();
    for (let i = 0; i < ADDRESS_LIMIT; i++) expect(await me('not-a-jwt')).toMatchObject({ status: 401, body: { detail: 'Invalid token: malformed token' } });
    const refused = await me(alice.token);
    expectTooMany(refused);
    await pause(Number(refused.headers.get('retry-after')) * 1000 + 200);
    expect(await me(alice.token)).toMatchObject({ status: 200, body: { email: alice.email } });
  });

  it('counts bad session cookies against the address', async () => {
    const alice = await server.createUser();
    const cookie = { cookie: 'loupe_session=not-a-session' };
    for (let i = 0; i < ADDRESS_LIMIT; i++) {
      expect(await send(null, 'GET', '/api/v1/auth/me', undefined, cookie)).toMatchObject({
        status: 401,
        body: { detail: 'Invalid token: session expired or unknown' },
      });
    }
    expectTooMany(await send(null, 'GET', '/api/v1/auth/me', undefined, cookie));
    expectTooMany(await me(alice.token));
  });
});
