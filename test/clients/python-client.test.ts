import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHOTOS } from '../support/ingest.js';
import { type TestServer, startTestServer } from '../support/server.js';

let server: TestServer;
// Three bad tokens per api_key per 2 s window: low enough that the Python suite can meet a 429 and wait it out.
beforeAll(async () => {
  server = await startTestServer({ env: { AUTH_FAILURE_LIMIT: '3', AUTH_FAILURE_WINDOW_SECONDS: '2' } });
}, 120_000);
afterAll(() => server?.close());

/** python3 with -S: no site-packages, so the client can lean on nothing outside the standard library. */
function python(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', ['-S', ...args], {
      env: { PATH: process.env.PATH ?? '', LANG: 'C.UTF-8', PYTHONPATH: 'clients/python', PYTHONDONTWRITEBYTECODE: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

describe('the Python client (clients/python) against a real server', () => {
  it('passes its unittest suite with the standard library alone, and what it made is on the server', { timeout: 150_000 }, async () => {
    const [user, spare] = await Promise.all([server.createUser(), server.createUser()]);
    const { code, output } = await python(['-m', 'unittest', 'discover', '-s', 'clients/python/tests', '-v'], {
      LOUPE_URL: server.url,
      LOUPE_API_KEY: user.api_key,
      LOUPE_API_SECRET: user.api_secret,
      LOUPE_SPARE_API_KEY: spare.api_key,
      LOUPE_SPARE_API_SECRET: spare.api_secret,
      LOUPE_TEST_PHOTOS: PHOTOS,
    });
    if (code !== 0) console.log(output);
    expect(code, 'python3 -m unittest exit status (its output is printed above)').toBe(0);
    const ran = Number(/^Ran (\d+) tests? in /m.exec(output)?.[1]);
    expect(ran).toBeGreaterThanOrEqual(33);
    expect(output).toMatch(/\nOK\n?$/);

    const datasets = await server.api(user.token, 'GET', '/api/v1/datasets');
    // The clone was deleted, and its SNAPSHOT_CLONE task with it.
    expect(datasets.body).toEqual([expect.objectContaining({ display_name: 'python client photos', status_new: 'READY', n_images: 8 })]);
    const tasks = await server.api(user.token, 'GET', '/api/v1/tasks?sort_by=start_time&sort_order=asc');
    expect(tasks.body.tasks.map((t: { task_type: string; status: string; dataset_name: string }) => [t.task_type, t.status, t.dataset_name])).toEqual([
      ['DATASET_CREATION', 'COMPLETED', 'python client photos'],
      ['MEDIA_ADDITION', 'COMPLETED', 'python client photos'],
      ['SNAPSHOT_RESTORE', 'COMPLETED', 'python client photos'],
    ]);
  });
});
