import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, type TestUser, startTestServer, waitFor } from '../support/server.js';
import { createDataset, form, photo, waitForDataset } from '../support/ingest.js';
import { sweepPassed } from '../support/sweeps.js';
import { holdingLock } from '../support/locks.js';
import { createHash } from 'node:crypto';
import sharp from 'sharp';

let server: TestServer;
let owner: TestUser;

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const waitStatus = (id: string, statuses: string[]) => waitForDataset(server, owner, id, statuses);
const versionsOf = async (id: string) => {
  const { rows } = await sql<{ id: string }>`select id from versions where dataset_id = ${id}::uuid order by created_at`.execute(server.loupe.container.database.db);
  return rows.map((r) => r.id);
};
const headOf = async (id: string) => {
  const { rows } = await sql<{ head: string }>`select head_version_id as head from datasets where id = ${id}::uuid`.execute(server.loupe.container.database.db);
  return rows[0]!.head;
};
const versionExists = async (versionId: string) => {
  const { rows } = await sql`select 1 from versions where id = ${versionId}::uuid`.execute(server.loupe.container.database.db);
  return rows.length > 0;
};
const addMedia = async (id: string, files: ReturnType<typeof photo>[]) => {
  const body = form(files);
  body.append('auto_reindex', 'true');
  expect((await server.api(owner.token, 'POST', `/api/v1/dataset/${id}/add_media`, body)).status).toBe(202);
  await waitFor(async () => {
    const tasks = (await server.api(owner.token, 'GET', `/api/v1/tasks?dataset_id=${id}&task_type=MEDIA_ADDITION`)).body.tasks;
    return tasks[0]?.status === 'COMPLETED' ? true : undefined;
  }, 60_000, 'media added');
  return waitStatus(id, ['READY']);
};
/**
 * The same picture under the same name, re-encoded so that its blob is the calling test's alone: the blob store keeps
 * one blob for equal bytes, so another test's dataset holding the fixture would keep it from being reclaimed.
 */
const ownCopy = async (name: string) => ({ name, bytes: await sharp(photo(name).bytes).jpeg({ quality: 85 }).toBuffer() });

beforeAll(async () => {
  server = await startTestServer({ env: { VERSION_GC_GRACE_SECONDS: '0', BLOB_GC_GRACE_SECONDS: '0', SNAPSHOT_PURGE_AFTER_SECONDS: '0' } });
  owner = await server.createUser();
}, 60_000);
afterAll(() => server?.close());

describe('the version sweep (issue 6: garbage)', () => {
  it('reclaims versions nothing holds, keeps snapshots and heads, and a clone keeps its shared version after its source is deleted', async () => {
    const kite = await ownCopy('kite.jpg');
    const { datasetId } = await createDataset(server, owner, 'gc', [[photo('dog.jpg'), photo('horses.jpg')]]);
    const creationVersion = await headOf(datasetId);

    await addMedia(datasetId, [photo('person.jpg')]);
    const between = await headOf(datasetId);
    await addMedia(datasetId, [kite]);
    const head = await headOf(datasetId);
    // The head between the two batches was no snapshot: it goes; the creation snapshot's version stays.
    await waitFor(async () => (!(await versionExists(between)) ? true : undefined), 10_000, 'intermediate version swept');
    expect(await versionsOf(datasetId)).toEqual([creationVersion, head]);
    // Its rows went with it (version_rows has no foreign key to cascade them).
    const left = await sql<{ n: number }>`select count(*)::int as n from version_rows where version_id = ${between}::uuid`.execute(server.loupe.container.database.db);
    expect(left.rows[0]!.n).toBe(0);

    const manual = (await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/snapshot`, { name: 'four' })).body;
    const creation = (await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/snapshot`)).body.find((s: { reason: string }) => s.reason === 'creation');
    expect((await server.api(owner.token, 'DELETE', `/api/v1/dataset/${datasetId}/snapshot/${creation.snapshot_id}`)).status).toBe(200);
    await waitFor(async () => (!(await versionExists(creationVersion)) ? true : undefined), 10_000, 'deleted snapshot purged');
    expect(await versionsOf(datasetId)).toEqual([head]);

    expect((await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/snapshot/${manual.snapshot_id}/clone`)).status).toBe(202);
    const clone = (await server.api(owner.token, 'GET', '/api/v1/datasets')).body.find((d: { source_dataset_id: string | null }) => d.source_dataset_id === datasetId);
    await waitStatus(clone.id, ['READY']);
    expect(await headOf(clone.id)).toBe(head);

    expect((await server.api(owner.token, 'DELETE', `/api/v1/dataset/${datasetId}`)).status).toBe(204);
    await sweepPassed(server);
    expect(await versionExists(head)).toBe(true);
    const explore = await server.api(owner.token, 'GET', `/api/v1/explore/${clone.id}?threshold=0`);
    expect(explore.body.clusters.flatMap((c: { previews: Array<{ file_name: string }> }) => c.previews.map((p) => p.file_name)).sort()).toEqual([
      'dog.jpg',
      'horses.jpg',
      'kite.jpg',
      'person.jpg',
    ]);
    const blobs = server.loupe.container.blobs;
    expect(await blobs.stat(sha(kite.bytes))).not.toBeNull();
    const original = await fetch(`${server.url}/api/v1/dataset/${clone.id}/media/${explore.body.clusters[0].previews[0].media_id}/original`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(original.status).toBe(200);

    // Once the clone goes too, nothing holds the version, its media or their blobs.
    expect((await server.api(owner.token, 'DELETE', `/api/v1/dataset/${clone.id}`)).status).toBe(204);
    await waitFor(async () => (!(await versionExists(head)) ? true : undefined), 10_000, 'shared version swept');
    await waitFor(async () => ((await blobs.stat(sha(kite.bytes))) === null ? true : undefined), 10_000, 'blob reclaimed');
  }, 60_000);

  it('a batch without reindex stores only its own rows over the sealed head, which stays while it is a base', async () => {
    const { datasetId } = await createDataset(server, owner, 'delta', [[photo('dog.jpg'), photo('horses.jpg'), photo('person.jpg')]]);
    const base = await headOf(datasetId);
    const body = form([photo('kite.jpg'), photo('coffee.png')]);
    expect((await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/add_media`, body)).status).toBe(202);
    await waitStatus(datasetId, ['PARTIAL INDEX']);
    const head = await headOf(datasetId);
    const { db } = server.loupe.container.database;
    const version = await sql<{ base_id: string | null; sealed: boolean }>`select base_id, (select sealed from versions where id = ${base}::uuid) as sealed
      from versions where id = ${head}::uuid`.execute(db);
    expect(version.rows[0]).toEqual({ base_id: base, sealed: true });
    const own = await sql<{ n: number }>`select count(*)::int as n from version_rows where version_id = ${head}::uuid`.execute(db);
    expect(own.rows[0]!.n).toBe(2);
    const explore = await server.api(owner.token, 'GET', `/api/v1/explore/${datasetId}?threshold=0`);
    expect(explore.body.clusters.flatMap((c: { previews: Array<{ file_name: string }> }) => c.previews.map((p) => p.file_name)).sort()).toEqual([
      'coffee.png',
      'dog.jpg',
      'horses.jpg',
      'kite.jpg',
      'person.jpg',
    ]);

    // Nothing but the head holds the base now (the creation snapshot is purged behind the API's back): it stays.
    await sql`update datasets set current_snapshot_id = null where id = ${datasetId}::uuid`.execute(db);
    await sql`update snapshots set deleted_at = now() - interval '1 day' where dataset_id = ${datasetId}::uuid`.execute(db);
    await waitFor(async () => ((await sql`select 1 from snapshots where dataset_id = ${datasetId}::uuid`.execute(db)).rows.length === 0 ? true : undefined), 10_000, 'purged');
    await sweepPassed(server);
    expect(await versionExists(base)).toBe(true);

    // A reindex writes a full version again; then neither the delta nor its base is held, and both are swept.
    expect((await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/reindex`)).status).toBe(202);
    await waitStatus(datasetId, ['READY']);
    const reindexed = await headOf(datasetId);
    const full = await sql<{ base_id: string | null; n: number }>`select v.base_id, (select count(*)::int from version_rows where version_id = v.id) as n
      from versions v where v.id = ${reindexed}::uuid`.execute(db);
    expect(full.rows[0]).toEqual({ base_id: null, n: 5 });
    await waitFor(async () => (!(await versionExists(head)) && !(await versionExists(base)) ? true : undefined), 10_000, 'delta and base swept');
    expect((await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}`)).body.n_images).toBe(5);
  });

  it('leaves the versions of a dataset whose row a change holds for a later sweep (they deadlocked with edits)', async () => {
    const { db } = server.loupe.container.database;
    const { datasetId } = await createDataset(server, owner, 'gc-held', [[photo('dog.jpg')]]);
    // A version nothing holds, released in the future so no sweep takes it before the dataset's row is held.
    const { rows } = await sql<{ id: string }>`insert into versions (dataset_id, released_at) values (${datasetId}::uuid, now() + interval '1 hour') returning id`.execute(db);
    const loose = rows[0]!.id;
    await holdingLock(server, sql`select 1 from datasets where id = ${datasetId}::uuid for update`, async () => {
      await sql`update versions set released_at = now() - interval '1 hour' where id = ${loose}::uuid`.execute(db);
      await sweepPassed(server);
      expect(await versionExists(loose)).toBe(true);
    });
    await waitFor(async () => (!(await versionExists(loose)) ? true : undefined), 10_000, 'released version swept once the row is free');
  });
});
