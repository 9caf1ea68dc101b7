import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskStatus, TaskType } from '../../src/core/tasks.js';
import { type TestServer, type TestUser, startTestServer } from '../support/server.js';
import { newDataset } from '../support/tasks.js';

let server: TestServer;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let alpha: string;
let beta: string;
let bobs: string;

const DAY = 86_400_000;
const base = Date.parse('2026-01-01T00:00:00.047Z');

/** Finished task rows written directly: the list reads rows, and these must never run. */
async function seed(datasetId: string, user: TestUser, type: TaskType, status: TaskStatus, day: number) {
  await server.loupe.container.database.db
    .insertInto('tasks')
    .values({
      dataset_id: datasetId,
      task_type: type,
      status,
      status_message: status,
      progress_percentage: status === 'COMPLETED' ? 100 : 40,
      error_message: status === 'FAILED' ? 'boom' : null,
      created_by: user.user_id,
      config: '{}',
      start_time: new Date(base + day * DAY),
      end_time: status === 'RUNNING' ? null : new Date(base + day * DAY + 60_000),
      worker_instance: null,
      job_locked_by: null,
    })
    .execute();
}

beforeAll(async () => {
  // API role only: a worker would rightly fail the seeded RUNNING rows, which have no job behind them.
  server = await startTestServer({ env: { LOUPE_ROLE: 'api' } });
  [alice, bob, carol] = await Promise.all([server.createUser(), server.createUser(), server.createUser()]);
  alpha = await newDataset(server, alice, 'alpha');
  beta = await newDataset(server, alice, 'beta');
  bobs = await newDataset(server, bob, 'bobs');
  // Bob can see beta (shared) but not alpha; carol sees nothing.
  await server.api(alice.token, 'PUT', `/api/v1/manage/${beta}/invite`, { grant_to_user_email: bob.email, role: 'editor' });
  await seed(alpha, alice, 'DATASET_CREATION', 'COMPLETED', 0);
  await seed(alpha, alice, 'MEDIA_ADDITION', 'FAILED', 1);
  await seed(alpha, alice, 'REINDEX', 'COMPLETED', 2);
  await seed(beta, alice, 'DATASET_CREATION', 'COMPLETED', 3);
  await seed(beta, bob, 'ENRICHMENT', 'RUNNING', 4);
  await seed(beta, bob, 'SNAPSHOT_RESTORE', 'ABORTED', 5);
  await seed(bobs, bob, 'DATASET_CREATION', 'COMPLETED', 6);
  for (let i = 0; i < 23; i++) await seed(alpha, alice, 'CUSTOM_METADATA', 'COMPLETED', 10 + i);
});
afterAll(() => server?.close());

const list = (user: TestUser, query = '') => server.api(user.token, 'GET', `/api/v1/tasks${query}`);

describe('GET /api/v1/tasks', () => {
  it('pages 20 at a time by default, newest first, with the total', async () => {
    const res = await list(alice);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 29, page: 1, page_size: 20 });
    expect(res.body.tasks).toHaveLength(20);
    const starts = res.body.tasks.map((t: { start_time: string }) => Date.parse(t.start_time));
    expect(starts).toEqual([...starts].sort((a, b) => b - a));
    expect(res.body.tasks[0]).toMatchObject({ start_time: '2026-02-02T00:00:00.047Z', end_time: '2026-02-02T00:01:00.047Z' });
    const page2 = await list(alice, '?page=2');
    expect(page2.body.tasks).toHaveLength(9);
    expect((await list(alice, '?page=3')).body).toMatchObject({ tasks: [], total: 29, page: 3 });
  });

  it('shows only tasks on datasets the caller can access', async () => {
    const bobsView = await list(bob, '?page_size=50');
    expect(bobsView.body.total).toBe(4);
    expect(new Set(bobsView.body.tasks.map((t: { dataset_id: string }) => t.dataset_id))).toEqual(new Set([beta, bobs]));
    expect((await list(carol)).body).toEqual({ tasks: [], total: 0, page: 1, page_size: 20 });
  });

  it('filters by dataset, name, type, status, creator and time range', async () => {
    expect((await list(alice, `?dataset_id=${beta}`)).body.total).toBe(3);
    expect((await list(alice, '?dataset_name=beta')).body.total).toBe(3);
    expect((await list(alice, '?task_type=MEDIA_ADDITION')).body.tasks.map((t: { status: string }) => t.status)).toEqual(['FAILED']);
    expect((await list(alice, '?task_status=RUNNING')).body.tasks).toMatchObject([{ task_type: 'ENRICHMENT', created_by: bob.email, end_time: null }]);
    expect((await list(alice, `?created_by=${encodeURIComponent(bob.email.toUpperCase())}`)).body.total).toBe(2);
    const from = new Date(base + 1 * DAY).toISOString();
    const to = new Date(base + 3 * DAY).toISOString();
    const ranged = await list(alice, `?start_time_from=${from}&start_time_to=${to}`);
    expect(ranged.body.tasks.map((t: { task_type: string }) => t.task_type)).toEqual(['DATASET_CREATION', 'REINDEX', 'MEDIA_ADDITION']);
    expect((await list(alice, `?dataset_id=${alpha}&task_type=REINDEX&task_status=COMPLETED`)).body.total).toBe(1);
  });

  it('sorts by each of the six fields, ascending or descending', async () => {
    const values = async (sortBy: string, order: string, field: string) =>
      ((await list(alice, `?sort_by=${sortBy}&sort_order=${order}&page_size=50`)).body.tasks as Array<Record<string, string>>).map((t) => t[field]!);
    // The embedded cluster uses the C collation: byte order.
    const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const sorted = (xs: string[], order: string) => [...xs].sort((a, b) => (order === 'asc' ? byteOrder(a, b) : byteOrder(b, a)));
    for (const order of ['asc', 'desc']) {
      for (const [sortBy, field] of [
        ['status', 'status'],
        ['task_type', 'task_type'],
        ['dataset_name', 'dataset_name'],
        ['dataset_id', 'dataset_id'],
        ['created_by', 'created_by'],
      ] as const) {
        const got = await values(sortBy, order, field);
        expect(got, `${sortBy} ${order}`).toEqual(sorted(got, order));
      }
      const starts = (await values('start_time', order, 'start_time')).map(Date.parse);
      expect(starts).toEqual([...starts].sort((a, b) => (order === 'asc' ? a - b : b - a)));
    }
  });

  it('422 with a detail for out-of-range paging and invalid enum values', async () => {
    for (const query of ['?page_size=4', '?page_size=51', '?page=0', '?page=x', '?task_type=UPLOAD', '?task_status=DONE', '?sort_by=name', '?sort_order=up', '?dataset_id=nope', '?start_time_from=yesterday']) {
      const res = await list(alice, query);
      expect(res.status, query).toBe(422);
      expect(res.body.detail, query).toEqual(expect.any(String));
    }
    expect((await list(alice, '?page_size=4')).body.detail).toBe('querystring/page_size must be >= 5');
    expect((await list(alice, '?task_type=UPLOAD')).body.detail).toMatch(/task_type must be equal to one of the allowed values: DATASET_CREATION, MEDIA_ADDITION/);
    expect((await list(alice, '?page_size=5')).body.tasks).toHaveLength(5);
    expect((await list(alice, '?page_size=50')).body.tasks).toHaveLength(29);
  });

  it('401 without a token', async () => {
    expect((await server.api(null, 'GET', '/api/v1/tasks')).status).toBe(401);
  });
});

describe('GET /metrics', () => {
  it('exposes task totals and request latency for Prometheus, without a token', async () => {
    await list(alice);
    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toContain('loupe_tasks{task_type="CUSTOM_METADATA",status="COMPLETED"} 23');
    expect(text).toContain('loupe_tasks{task_type="ENRICHMENT",status="RUNNING"} 1');
    expect(text).toMatch(/loupe_http_requests_total\{method="GET",route="\/api\/v1\/tasks",status="200"\} \d+/);
    expect(text).toContain('loupe_process_resident_memory_bytes');
  });
});

describe('GET /api/v1/tasks/filters', () => {
  it('lists the values present in the caller\'s tasks', async () => {
    const res = await server.api(bob.token, 'GET', '/api/v1/tasks/filters');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      dataset_names: ['beta', 'bobs'],
      dataset_ids: [beta, bobs],
      task_types: ['DATASET_CREATION', 'ENRICHMENT', 'SNAPSHOT_RESTORE'],
      created_by: [alice.email, bob.email].sort(),
    });
  });

  it('scopes the options by start time', async () => {
    const from = new Date(base + 4 * DAY).toISOString();
    const to = new Date(base + 5 * DAY).toISOString();
    const res = await server.api(bob.token, 'GET', `/api/v1/tasks/filters?start_time_from=${from}&start_time_to=${to}`);
    expect(res.body).toEqual({ dataset_names: ['beta'], dataset_ids: [beta], task_types: ['ENRICHMENT', 'SNAPSHOT_RESTORE'], created_by: [bob.email] });
    expect((await server.api(carol.token, 'GET', '/api/v1/tasks/filters')).body).toEqual({ dataset_names: [], dataset_ids: [], task_types: [], created_by: [] });
  });

  it('422 for a bad time', async () => {
    expect((await server.api(bob.token, 'GET', '/api/v1/tasks/filters?start_time_to=soon')).status).toBe(422);
  });
});
