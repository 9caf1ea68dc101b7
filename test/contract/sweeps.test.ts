import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, type TestUser, startTestServer, waitFor } from '../support/server.js';
import { createDataset, photo } from '../support/ingest.js';

let server: TestServer;
let owner: TestUser;

/** Files in the blob store, the temp folder of uploads in progress left out. */
async function blobFiles(dir = path.join(server.dataDir, 'blobs')): Promise<number> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  let n = 0;
  for (const entry of entries) {
    if (entry.isDirectory()) n += entry.name === 'tmp' ? 0 : await blobFiles(path.join(dir, entry.name));
    else n += 1;
  }
  return n;
}

type SweepHealth = Record<string, { runs: number; failures: number; last_error_at: string | null }>;
const sweeps = async (on: TestServer = server): Promise<SweepHealth> => {
  const res = await on.api(null, 'GET', '/ready');
  expect(res.status).toBe(200);
  return res.body.sweeps;
};

beforeAll(async () => {
  server = await startTestServer({ env: { VERSION_GC_GRACE_SECONDS: '0', BLOB_GC_GRACE_SECONDS: '0' } });
  owner = await server.createUser();
}, 60_000);
afterAll(() => server?.close());

describe('the garbage sweeps (issues 22 and 28)', () => {
  it('reclaim the versions of two datasets sharing one JPEG without failing, and the blob store empties after both are deleted', async () => {
    const ids: string[] = [];
    for (const name of ['shared-a', 'shared-b']) {
      const { datasetId } = await createDataset(server, owner, name, [[photo('dog.jpg')]]);
      const media = (await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/media?limit=10`)).body.media as Array<{ media_id: string }>;
      expect(media).toHaveLength(1);
      for (const tag of ['first', 'second']) {
        const res = await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/media/tags`, { tags: [tag], media_ids: [media[0]!.media_id] });
        expect(res.status, res.text).toBe(200);
      }
      ids.push(datasetId);
    }
    expect(await blobFiles()).toBeGreaterThan(0);

    // Every sweep runs at least twice more from here, and none has failed.
    const before = await sweeps();
    const after = await waitFor(async () => {
      const now = await sweeps();
      return Object.entries(before).every(([name, s]) => now[name]!.runs >= s.runs + 2) ? now : undefined;
    }, 20_000, 'two more runs of every sweep');
    expect(Object.keys(after).sort()).toEqual(['sweep-blobs', 'sweep-expired-exports', 'sweep-staging-tables', 'sweep-summaries', 'sweep-versions']);
    for (const s of Object.values(after)) expect({ failures: s.failures, last_error_at: s.last_error_at }).toEqual({ failures: 0, last_error_at: null });

    for (const id of ids) expect((await server.api(owner.token, 'DELETE', `/api/v1/dataset/${id}`)).status).toBe(204);
    await waitFor(async () => ((await blobFiles()) === 0 ? true : undefined), 20_000, 'blob store empty');
    expect(Object.values(await sweeps()).map((s) => s.failures)).toEqual([0, 0, 0, 0, 0]);
  });

  it('a sweep that fails is counted in /ready and /metrics while the others keep running, and runs again once fixed', async () => {
    // A server of its own: the failures it causes stay out of the other test's counts, whatever the order.
    const own = await startTestServer();
    try {
      const { db } = own.loupe.container.database;
      // Any delete from exports fails (a statement trigger fires even when no row matches): only the export sweep deletes there.
      await sql`create function test_break_export_sweep() returns trigger language plpgsql as $$
        begin raise exception 'export sweep broken by the test'; end $$`.execute(db);
      await sql`create trigger test_break_export_sweep before delete on exports for each statement execute function test_break_export_sweep()`.execute(db);
      try {
        const before = await sweeps(own);
        const broken = await waitFor(async () => {
          const now = await sweeps(own);
          return now['sweep-expired-exports']!.failures >= before['sweep-expired-exports']!.failures + 2 && now['sweep-blobs']!.runs >= before['sweep-blobs']!.runs + 2
            ? now
            : undefined;
        }, 20_000, 'the export sweep failing twice while the blob sweep runs');
        expect(broken['sweep-expired-exports']!.last_error_at).toMatch(/^\d{4}-\d\d-\d\dT/);
        for (const name of ['sweep-staging-tables', 'sweep-versions', 'sweep-blobs']) expect(broken[name]!.failures).toBe(before[name]!.failures);

        const metrics = await own.api(null, 'GET', '/metrics');
        expect(metrics.status).toBe(200);
        const counted = Number(/^loupe_sweep_failures_total\{sweep="sweep-expired-exports"\} (\d+)$/m.exec(metrics.text)?.[1]);
        expect(counted).toBeGreaterThanOrEqual(broken['sweep-expired-exports']!.failures);
        expect(metrics.text).toMatch(/^loupe_sweep_failures_total\{sweep="sweep-blobs"\} 0$/m);
      } finally {
        await sql`drop trigger test_break_export_sweep on exports`.execute(db);
        await sql`drop function test_break_export_sweep()`.execute(db);
      }
      const fixed = (await sweeps(own))['sweep-expired-exports']!;
      const after = await waitFor(async () => {
        const now = (await sweeps(own))['sweep-expired-exports']!;
        return now.runs >= fixed.runs + 2 ? now : undefined;
      }, 20_000, 'two more runs of the export sweep');
      expect(after.failures).toBeLessThanOrEqual(fixed.failures + 1);
    } finally {
      await own.close();
    }
  });
});
