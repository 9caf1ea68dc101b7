import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { promisify } from 'node:util';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signClientToken } from '../../src/modules/auth/auth.service.js';
import { call, seededDataDir, startTestServer, tempDataDir, waitFor } from '../support/server.js';

const run = promisify(execFile);
const dataDir = seededDataDir();

function loupe(args: string[], env: Record<string, string> = {}) {
  return run(process.execPath, ['bin/loupe.js', ...args], { env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env } });
}

// The CLI uses the server's database: a server started once on dataDir (a copy of the migrated cluster) makes it its own.
beforeAll(async () => {
  await (await startTestServer({ dataDir })).close();
}, 120_000);
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('loupe CLI', () => {
  it('creates a user with the server stopped and prints exactly one JSON object', async () => {
    const { stdout } = await loupe(['user', 'create', '--email', 'cli-a@example.com', '--json']);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toEqual({
      user_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: 'cli-a@example.com',
      api_key: expect.stringMatching(/^lk_/),
      api_secret: expect.any(String),
    });
  });

  it('refuses a duplicate or invalid e-mail with a message and a non-zero exit', async () => {
    await loupe(['user', 'create', '--email', 'cli-dup@example.com']);
    await expect(loupe(['user', 'create', '--email', 'cli-dup@example.com', '--json'])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('already exists'),
    });
    await expect(loupe(['user', 'create', '--email', 'not-an-email'])).rejects.toMatchObject({ code: 1 });
  });

  // Seven CLI processes start in turn (each loads the app): 22–29 s when the whole suite runs beside it on two cores.
  it('works beside a running server on the same DATA_DIR, and its keys and tokens work there', { timeout: 60_000 }, async () => {
    const server = await startTestServer({ dataDir });
    try {
      const created = JSON.parse((await loupe(['user', 'create', '--email', 'cli-b@example.com', '--json'])).stdout);
      const token = (await loupe(['token', '--email', 'cli-b@example.com'])).stdout.trim();
      expect(await call(server.url, token, 'GET', '/api/v1/auth/me')).toMatchObject({ status: 200, body: { user_id: created.user_id } });
      expect((await call(server.url, token, 'GET', '/api/v1/tasks')).status).toBe(200);

      const second = JSON.parse((await loupe(['key', 'create', '--email', 'cli-b@example.com', '--json'])).stdout);
      expect(second.api_key).not.toBe(created.api_key);
      const listed = JSON.parse((await loupe(['user', 'list', '--json'])).stdout) as Array<{ email: string; active_keys: number }>;
      expect(listed.find((u) => u.email === 'cli-b@example.com')?.active_keys).toBe(2);

      // The server has verified (and cached) the second key; the CLI's revocation must still reach it at once.
      const secondToken = await signClientToken(second.api_key, second.api_secret, 300);
      expect((await call(server.url, secondToken, 'GET', '/api/v1/auth/me')).status).toBe(200);
      await loupe(['key', 'revoke', second.api_key]);
      await waitFor(async () => ((await call(server.url, secondToken, 'GET', '/api/v1/auth/me')).status === 401 ? true : undefined), 3_000, 'revocation');
      await expect(loupe(['key', 'revoke', second.api_key])).rejects.toMatchObject({ code: 1 });
      const newest = (await loupe(['token', '--email', 'cli-b@example.com'])).stdout.trim();
      expect((await call(server.url, newest, 'GET', '/api/v1/auth/me')).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('refuses, naming DATA_DIR, where no server has made a database, and creates none', async () => {
    const empty = tempDataDir();
    try {
      await expect(loupe(['user', 'create', '--email', 'cli-c@example.com'], { DATA_DIR: empty })).rejects.toMatchObject({
        code: 1,
        stdout: '',
        stderr: `No Loupe database in DATA_DIR=${empty}. Set DATA_DIR (or DATABASE_URL) to the server's, or start the server once with this DATA_DIR to create it.\n`,
      });
      await expect(loupe(['token', '--email', 'cli-a@example.com'], { DATA_DIR: path.join(empty, 'none') })).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringContaining(`DATA_DIR=${path.join(empty, 'none')}`),
      });
      expect(fs.readdirSync(empty)).toEqual([]);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });

  it('explains each command in --help', async () => {
    const { stdout } = await loupe(['--help']);
    for (const command of ['user', 'key', 'token']) expect(stdout).toContain(command);
    expect((await loupe(['user', 'create', '--help'])).stdout).toContain('--email');
  });
});

describe('server configuration', () => {
  it('lists every bad setting at once and exits 2', async () => {
    const result = run(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { ...process.env, PORT: 'abc', LOG_LEVEL: 'chatty', DATA_DIR: dataDir },
    });
    await expect(result).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/PORT must be an integer[\s\S]*LOG_LEVEL must be one of/),
    });
  });

  it('names PORT when the port is taken, before it creates or starts a database', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    const fresh = tempDataDir();
    try {
      const result = run(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: fresh },
      });
      await expect(result).rejects.toMatchObject({
        code: 1,
        stderr: `PORT=${port} is already in use on 127.0.0.1: stop what listens there, or set PORT to a free port (PORT=0 picks one)\n`,
      });
      expect(fs.existsSync(path.join(fresh, 'pg'))).toBe(false);
    } finally {
      taken.close();
      fs.rmSync(fresh, { recursive: true, force: true });
    }
  });
});
