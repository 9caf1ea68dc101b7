import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedIndexedDataset } from '../../bench/lib/seed-media.js';
import { type TestServer, type TestUser, startTestServer, waitFor } from '../support/server.js';
import { createDataset, form, photo, waitForDataset } from '../support/ingest.js';
import { holdingLock } from '../support/locks.js';
import { waitForTask } from '../support/tasks.js';
import { sweepPassed } from '../support/sweeps.js';

let server: TestServer;
let owner: TestUser;
/** The full-set floor the server runs with (VERSION_FULL_SET_FLOOR; 50,000 by default): a seed of SEED media is over it. */
const FLOOR = 500;
const SEED = 600;

const db = () => server.loupe.container.database.db;
const headOf = async (id: string) => (await db().selectFrom('datasets').select('head_version_id').where('id', '=', id).executeTakeFirstOrThrow()).head_version_id!;
/** How a version keeps its annotations: the rows it holds itself and the version it inherits the rest from. */
const layout = async (versionId: string) => {
  const { rows } = await sql<{ own: number; base: string | null; sealed: boolean }>`select
    (select count(*)::int from annotation_rows where version_id = ${versionId}::uuid) as own,
    (select base_id from annotation_bases where version_id = ${versionId}::uuid) as base,
    (select sealed from versions where id = ${versionId}::uuid) as sealed`.execute(db());
  return rows[0]!;
};
const versionExists = async (versionId: string) => (await sql`select 1 from versions where id = ${versionId}::uuid`.execute(db())).rows.length > 0;
const tag = async (datasetId: string, tags: string[], mediaIds: string[]) => {
  const res = await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/media/tags`, { tags, media_ids: mediaIds });
  expect(res.status, res.text).toBe(200);
  return res.body;
};
/** How a version keeps its custom fields: rows of its own in field_rows or in a set of its own, and its base. */
const fieldLayout = async (versionId: string) => {
  const { rows } = await sql<{ own: number; set: number; base: string | null }>`select
    (select count(*)::int from field_rows where version_id = ${versionId}::uuid) as own,
    (select count(*)::int from field_sets where version_id = ${versionId}::uuid) as set,
    (select base_id from field_bases where version_id = ${versionId}::uuid) as base`.execute(db());
  return rows[0]!;
};
const setTables = async () => (await sql<{ n: number }>`select count(*)::int as n from pg_inherits where inhparent = 'field_sets'::regclass`.execute(db())).rows[0]!.n;
const importFields = async (datasetId: string, lines: string[]) => {
  const body = new FormData();
  body.append('file', new Blob([lines.join('\n')]), 'fields.csv');
  const res = await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/custom_metadata`, body);
  expect(res.status, res.text).toBe(202);
  const task = await waitForTask(server, owner, datasetId, res.body.task_id, (t) => ['COMPLETED', 'FAILED'].includes(t.status), 'import done', 60_000);
  expect(task.status, task.error_message).toBe('COMPLETED');
  return (await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/custom_metadata/imports/${res.body.task_id}`)).body.report;
};
const fieldsOf = async (datasetId: string, mediaId: string) => (await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/media/${mediaId}`)).body.custom_fields;
const tagList = async (datasetId: string) => (await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/tags`)).body.tags;

beforeAll(async () => {
  server = await startTestServer({ env: { VERSION_GC_GRACE_SECONDS: '0', VERSION_FULL_SET_FLOOR: String(FLOOR) } });
  owner = await server.createUser();
}, 60_000);
afterAll(() => server?.close());

describe('annotations are copied on write apart from the version rows', () => {
  it('an edit holds only the media it changes, inherits the rest, and a reindex carries them without copying', async () => {
    const { datasetId } = await createDataset(server, owner, 'layers', [[photo('dog.jpg'), photo('horses.jpg'), photo('person.jpg')]]);
    const ids = new Map<string, string>();
    for (const m of (await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/media?limit=10`)).body.media) ids.set(m.file_name, m.media_id);

    await tag(datasetId, ['a'], [ids.get('dog.jpg')!]);
    const first = await headOf(datasetId);
    expect(await layout(first)).toEqual({ own: 1, base: null, sealed: false });

    await tag(datasetId, ['b'], [ids.get('horses.jpg')!]);
    const second = await headOf(datasetId);
    // The first edit's version became the base (sealed); the second holds horses.jpg only.
    expect(await layout(second)).toEqual({ own: 1, base: first, sealed: false });
    expect((await layout(first)).sealed).toBe(true);
    expect(await tagList(datasetId)).toEqual([
      { tag: 'a', count: 1 },
      { tag: 'b', count: 1 },
    ]);
    // An edit's version keeps the ANN index: similarity search works after it.
    const similar = await server.api(owner.token, 'GET', `/api/v1/explore/${datasetId}?anchor_media_id=${ids.get('dog.jpg')}&anchor_type=MEDIA`);
    expect(similar.status, similar.text).toBe(200);

    // A media batch (a delta of version rows) and a reindex (a full copy of them) each carry the annotations.
    expect((await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/add_media`, form([photo('kite.jpg')]))).status).toBe(202);
    await waitForDataset(server, owner, datasetId, ['PARTIAL INDEX']);
    const added = await headOf(datasetId);
    expect(await layout(added)).toEqual({ own: 1, base: first, sealed: false });
    expect((await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/reindex`)).status).toBe(202);
    await waitForDataset(server, owner, datasetId, ['READY']);
    const reindexed = await headOf(datasetId);
    expect(await layout(reindexed)).toEqual({ own: 1, base: first, sealed: false });
    expect(await tagList(datasetId)).toEqual([
      { tag: 'a', count: 1 },
      { tag: 'b', count: 1 },
    ]);
    const dog = await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/media/${ids.get('dog.jpg')}`);
    expect(dog.body.tags).toEqual(['a']);

    // The versions between are held by nothing and go; the first edit's stays while it is a base.
    await waitFor(async () => (!(await versionExists(second)) && !(await versionExists(added)) ? true : undefined), 10_000, 'versions between swept');
    expect(await versionExists(first)).toBe(true);
    expect((await sql<{ n: number }>`select count(*)::int as n from annotation_rows where version_id = ${second}::uuid`.execute(db())).rows[0]!.n).toBe(0);
  }, 120_000);

  it('a change that would hold as many rows as its base is written whole, and the next edit inherits it', async () => {
    const datasetId = await seedIndexedDataset(server.loupe, owner.user_id, 'many', SEED);
    const { rows } = await sql<{ media_id: string }>`select vm.media_id from version_media vm join datasets d on d.head_version_id = vm.version_id
      where d.id = ${datasetId}::uuid order by vm.ordinal`.execute(db());
    const all = rows.map((r) => r.media_id);

    expect(await tag(datasetId, ['x'], all)).toEqual({ matched: SEED, changed: SEED });
    const first = await headOf(datasetId);
    expect(await layout(first)).toMatchObject({ own: SEED, base: null });

    // SEED - 10 changed rows (over the floor) over a SEED-row base: a delta would own all of it, so the version is whole.
    expect(await tag(datasetId, ['y'], all.slice(0, SEED - 10))).toEqual({ matched: SEED - 10, changed: SEED - 10 });
    const second = await headOf(datasetId);
    expect(await layout(second)).toMatchObject({ own: SEED, base: null });

    expect(await tag(datasetId, ['z'], all.slice(0, 10))).toEqual({ matched: 10, changed: 10 });
    expect(await layout(await headOf(datasetId))).toMatchObject({ own: 10, base: second });
    expect(await tagList(datasetId)).toEqual([
      { tag: 'x', count: SEED },
      { tag: 'y', count: SEED - 10 },
      { tag: 'z', count: 10 },
    ]);
  }, 60_000);

  it('an import of most of a large dataset keeps its fields in a set of their own, which changes after it inherit, a restore brings back and the sweep drops with its version', async () => {
    const datasetId = await seedIndexedDataset(server.loupe, owner.user_id, 'fields', SEED);
    const { rows } = await sql<{ media_id: string }>`select vm.media_id from version_media vm join datasets d on d.head_version_id = vm.version_id
      where d.id = ${datasetId}::uuid order by vm.ordinal`.execute(db());
    const all = rows.map((r) => r.media_id);
    const setsBefore = await setTables();

    expect(await importFields(datasetId, ['media_id,score', ...all.map((id, i) => `${id},${i}`)])).toMatchObject({ rows: SEED, matched: SEED, unmatched: 0, rejected: 0 });
    const first = await headOf(datasetId);
    expect(await fieldLayout(first)).toEqual({ own: 0, set: SEED, base: null });
    expect(await setTables()).toBe(setsBefore + 1);
    // The set carries the GIN index of the field rows (0038), and an equal value is found through it.
    const { rows: indexes } = await sql<{ indexdef: string }>`select indexdef from pg_indexes
      where tablename = ${`field_sets_${first.replaceAll('-', '')}`} and indexdef like '%USING gin%'`.execute(db());
    expect(indexes).toHaveLength(1);
    const equal = encodeURIComponent(JSON.stringify([{ custom: { field: 'score', op: 'eq', value: 412 } }]));
    const one = await server.api(owner.token, 'GET', `/api/v1/explore/${datasetId}?threshold=0&vql=${equal}`);
    expect(one.status, one.text).toBe(200);
    expect(one.body.clusters.flatMap((c: { previews: Array<{ media_id: string }> }) => c.previews.map((p) => p.media_id))).toEqual([all[412]]);

    // Naming every media again writes a new set, whole, keeping the fields it does not name; a media named twice
    // (which breaks the set's key at first) takes its last row. Nothing holds the first set then: the sweep takes
    // its version, and drops its table, but not while a read (a long export's, say) holds field_sets: it gives up
    // waiting for it and drops the table at a later round.
    const second = await holdingLock(server, 'lock table field_sets in access share mode', async () => {
      expect(await importFields(datasetId, ['media_id,kind', `${all[0]},dup`, ...all.map((id) => `${id},k`)])).toMatchObject({ matched: SEED + 1 });
      const head = await headOf(datasetId);
      expect(await fieldLayout(head)).toEqual({ own: 0, set: SEED, base: null });
      await waitFor(async () => ((await versionExists(first)) ? undefined : true), 30_000, 'first set version swept');
      await sweepPassed(server);
      expect(await setTables()).toBe(setsBefore + 2);
      // Reads go on meanwhile, each held back a moment at most: a drop left waiting behind the held lock would hold
      // every later read of fields back until it got the lock.
      const reading = performance.now();
      expect(await fieldsOf(datasetId, all[0]!)).toEqual({ score: 0, kind: 'k' });
      expect(await fieldsOf(datasetId, all[2]!)).toEqual({ score: 2, kind: 'k' });
      expect(performance.now() - reading).toBeLessThan(10_000);
      return head;
    });
    await waitFor(async () => ((await setTables()) === setsBefore + 1 ? true : undefined), 30_000, 'first set dropped');

    // An edit inherits the set; a small import is a delta over it, read through to the set for the rest.
    await tag(datasetId, ['t'], all.slice(0, 3));
    expect(await fieldLayout(await headOf(datasetId))).toEqual({ own: 0, set: 0, base: second });
    expect(await importFields(datasetId, ['media_id,score', `${all[0]},-1`, `${all[1]},-2`])).toMatchObject({ matched: 2 });
    expect(await fieldLayout(await headOf(datasetId))).toEqual({ own: 2, set: 0, base: second });
    expect(await fieldsOf(datasetId, all[1]!)).toEqual({ score: -2, kind: 'k' });
    expect(await fieldsOf(datasetId, all[2]!)).toEqual({ score: 2, kind: 'k' });
    const vql = encodeURIComponent(JSON.stringify([{ custom: { field: 'score', op: 'lt', value: 0 } }]));
    const negative = await server.api(owner.token, 'GET', `/api/v1/explore/${datasetId}?threshold=0&previews_limit=10&vql=${vql}`);
    expect(negative.status, negative.text).toBe(200);
    const found = negative.body.clusters.flatMap((c: { previews: Array<{ media_id: string }> }) => c.previews.map((p) => p.media_id));
    expect(found.sort()).toEqual([all[0], all[1]].sort());
    expect(await tagList(datasetId)).toEqual([{ tag: 't', count: 3 }]);

    // A restore forks from the snapshot's version: its two rows copied, the set inherited.
    expect((await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/snapshot`, { name: 'sets' })).status).toBe(200);
    await importFields(datasetId, ['media_id,kind', `${all[0]},changed`]);
    const snapshot = (await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/snapshot`)).body.find((s: { snapshot_name: string }) => s.snapshot_name === 'sets');
    expect((await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/snapshot/${snapshot.snapshot_id}/restore`)).status).toBe(202);
    await waitFor(async () => ((await fieldsOf(datasetId, all[0]!)).kind === 'k' ? true : undefined), 30_000, 'restored');
    await waitForDataset(server, owner, datasetId, ['READY']);
    expect(await fieldLayout(await headOf(datasetId))).toEqual({ own: 2, set: 0, base: second });
    expect(await fieldsOf(datasetId, all[0]!)).toEqual({ score: -1, kind: 'k' });
  }, 180_000);
});
