import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lane, currentLane } from '../../src/adapters/db/database.js';
import type { JobDefinition } from '../../src/jobs/registry.js';
import { openTransaction, photo, processFiles, upload } from '../support/ingest.js';
import { type TestServer, type TestUser, startTestServer } from '../support/server.js';
import { hasStatus, newDataset, waitForTask } from '../support/tasks.js';

/** A stand-in creation that notes the lane its queries run in, then commits. */
let jobLane: Lane | null = null;
const standInCreation: JobDefinition = {
  type: 'DATASET_CREATION',
  async handler(ctx) {
    jobLane = currentLane();
    await ctx.commit(async () => undefined, 'stand-in created');
  },
};

let server: TestServer;
let owner: TestUser;
let datasetId: string;

beforeAll(async () => {
  server = await startTestServer({ jobs: [standInCreation] });
  owner = await server.createUser();
  datasetId = await newDataset(server, owner, 'pools');
});
afterAll(() => server?.close());

describe('reads and everything else have a connection pool each', () => {
  it('answers GET requests while uploads and jobs hold every connection of the writes pool', async () => {
    const { pools } = server.loupe.container.database;
    const held: pg.PoolClient[] = [];
    try {
      while (pools.writes.idleCount > 0 || pools.writes.totalCount < pools.writes.options.max!) held.push(await pools.writes.connect());
      const tasks = await server.api(owner.token, 'GET', '/api/v1/tasks');
      expect(tasks.status).toBe(200);
      expect(tasks.body.tasks).toEqual([]);
      const datasets = await server.api(owner.token, 'GET', '/api/v1/datasets');
      expect(datasets.status).toBe(200);
      expect(datasets.body.map((d: { id: string }) => d.id)).toEqual([datasetId]);
      expect(pools.reads.totalCount).toBeGreaterThan(0);
    } finally {
      for (const client of held) client.release();
    }
  });

  it('runs queued jobs in the writes lane', async () => {
    const transId = await openTransaction(server, owner, datasetId);
    expect((await upload(server, owner, datasetId, transId, [photo('dog.jpg')])).status).toBe(202);
    const processed = await processFiles(server, owner, datasetId, transId);
    expect(processed.status).toBe(202);
    await waitForTask(server, owner, datasetId, processed.body.task_id, hasStatus('COMPLETED'), 'the stand-in creation to complete');
    expect(jobLane).toBe('writes');
  });
});
