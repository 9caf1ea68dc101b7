import sharp, { type Sharp } from 'sharp';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportArchive } from '../support/exports.js';
import { createDataset, photo, waitForDataset } from '../support/ingest.js';
import { holdingLock } from '../support/locks.js';
import { type TestServer, type TestUser, startTestServer } from '../support/server.js';
import { hasStatus, waitForTask } from '../support/tasks.js';

/**
 * Dedup over HTTP on fixture photos and edits made from them: a byte-identical copy and a PNG of a decoded JPEG (exact
 * duplicates), a crop and a smaller re-encode (near duplicates). Dry runs give each group and its keeper by every rule;
 * the task snapshots the head, removes the others (or tags them), an export carries the deduplicated set, and
 * restoring the snapshot brings them back.
 */

let server: TestServer;
let owner: TestUser;
let viewer: TestUser;
let datasetId: string;
/** Media ids by file name, and back. */
const ids = new Map<string, string>();
const names = new Map<string, string>();

const exif = (date: string) => ({ IFD2: { DateTimeOriginal: date } });
const edit = async (name: string, f: (w: number, h: number) => Sharp) => {
  const bytes = photo('person.jpg').bytes;
  const { width = 0, height = 0 } = await sharp(bytes).metadata();
  return { name, bytes: await f(width, height).toBuffer() };
};

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.createUser();
  viewer = await server.createUser();
  const dog = photo('dog.jpg');
  const horses = photo('horses.jpg');
  const person = photo('person.jpg');
  const files = [
    dog,
    horses,
    person,
    photo('chelsea.png'),
    photo('coffee.png'),
    { name: 'dog-copy.jpg', bytes: dog.bytes },
    // Written from the decoded JPEG: other bytes, the same pixels.
    { name: 'horses-reencoded.png', bytes: await sharp(horses.bytes).png().toBuffer() },
    await edit('person-crop.jpg', (w, h) =>
      sharp(person.bytes).extract({ left: Math.round(w * 0.08), top: Math.round(h * 0.08), width: Math.round(w * 0.84), height: Math.round(h * 0.84) }).jpeg({ quality: 90 }),
    ),
    await edit('person-small.jpg', (w) => sharp(person.bytes).resize(Math.round(w / 2)).withExif(exif('2010:06:01 12:00:00')).jpeg({ quality: 70 })),
  ];
  const created = await createDataset(server, owner, 'dedup', [files]);
  expect(created.dataset.status_new).toBe('READY');
  datasetId = created.datasetId;
  const listed = await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/media?limit=100`);
  for (const m of listed.body.media as Array<{ media_id: string; file_name: string }>) {
    ids.set(m.file_name, m.media_id);
    names.set(m.media_id, m.file_name);
  }
  expect(ids.size).toBe(9);
  const share = await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/share`, { user_email: viewer.email, role: 'viewer' });
  expect(share.status, share.text).toBe(200);
  const csv = new FormData();
  csv.append('file', new Blob(['file_name,score,parts\nperson.jpg,1,"[""a""]"\nperson-crop.jpg,5,[]\nperson-small.jpg,3,[]\n']), 'scores.csv');
  const imported = await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/custom_metadata`, csv);
  expect(imported.status, imported.text).toBe(202);
  await waitForTask(server, owner, datasetId, imported.body.task_id, hasStatus('COMPLETED'), 'import', 30_000);
}, 120_000);
afterAll(() => server?.close());

const dedup = (body: Record<string, unknown>, user = owner, id = datasetId) => server.api(user.token, 'POST', `/api/v1/dataset/${id}/dedup`, body);

/** A dry run's groups as file names, keeper first: [[keeper, ...others]]. */
async function plan(body: Record<string, unknown>) {
  const res = await dedup({ ...body, dry_run: true });
  expect(res.status, res.text).toBe(200);
  return res.body as { totals: Record<string, number>; groups: Array<{ group_id: string; n_members: number; keeper_media_id: string; members: Array<{ media_id: string; file_name: string; value: unknown; keep: boolean }> }> };
}
const keepers = async (body: Record<string, unknown>) => (await plan(body)).groups.map((g) => g.members.map((m) => m.file_name));

/** The file names of the dataset's current version. */
const current = async () => {
  const res = await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/media?limit=100`);
  return (res.body.media as Array<{ file_name: string }>).map((m) => m.file_name).sort();
};
const datasetRow = async () => (await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}`)).body;

/** The tie-break every rule ends with: first recorded, then file name, then id. */
async function firstRecorded(a: string, b: string): Promise<string> {
  const { rows } = await sql<{ file_name: string }>`select file_name from media where id = any(${[ids.get(a)!, ids.get(b)!]}::uuid[])
    order by created_at, file_name collate "C", id limit 1`.execute(server.loupe.container.database.db);
  return rows[0]!.file_name;
}

describe('dedup dry run', () => {
  it('exact: identical bytes and identical pixels are groups; largest_resolution keeps the larger file on equal pixels', async () => {
    const result = await plan({ scope: 'exact', keep: 'largest_resolution' });
    expect(result.totals).toEqual({ groups: 2, media_in_groups: 4, media_kept: 2, media_removed: 2 });
    const dogKeeper = await firstRecorded('dog.jpg', 'dog-copy.jpg');
    const dogOther = dogKeeper === 'dog.jpg' ? 'dog-copy.jpg' : 'dog.jpg';
    expect(result.groups.map((g) => g.members.map((m) => m.file_name)).sort()).toEqual([[dogKeeper, dogOther], ['horses-reencoded.png', 'horses.jpg']].sort());
    const horses = result.groups.find((g) => g.members[0]!.file_name === 'horses-reencoded.png')!;
    expect(horses.group_id).toMatch(/^pixels:[0-9a-f]{64}$/);
    expect(horses.keeper_media_id).toBe(ids.get('horses-reencoded.png'));
    expect(horses.members.map((m) => [m.keep, m.value])).toEqual([
      [true, 773 * 512],
      [false, 773 * 512],
    ]);
    const page = await plan({ scope: 'exact', keep: 'largest_resolution', page_number: 1 });
    expect(page.groups).toEqual([]);
    expect(page.totals.groups).toBe(2);
  });

  it('near at level 0: the crop and the small copy join the photo; each keeper rule picks its member', async () => {
    const person = (groups: string[][]) => groups.find((g) => g.includes('person.jpg'));
    expect(person(await keepers({ scope: 'near', keep: 'largest_resolution' }))).toEqual(['person.jpg', 'person-crop.jpg', 'person-small.jpg']);
    // EXIF capture time: the small copy's 2010 before the photo's 2013; the crop has none (sharp drops it) and comes last.
    expect(person(await keepers({ scope: 'near', level: 0, keep: 'earliest_capture' }))).toEqual(['person-small.jpg', 'person.jpg', 'person-crop.jpg']);
    expect(person(await keepers({ scope: 'near', keep: 'custom_field', field: 'score', order: 'desc' }))).toEqual(['person-crop.jpg', 'person-small.jpg', 'person.jpg']);
    expect(person(await keepers({ scope: 'near', keep: 'custom_field', field: 'score', order: 'asc' }))).toEqual(['person.jpg', 'person-small.jpg', 'person-crop.jpg']);
    const sharpest = (await plan({ scope: 'near', keep: 'sharpest' })).groups.find((g) => g.members.some((m) => m.file_name === 'person.jpg'))!;
    const blur = sharpest.members.map((m) => m.value as number);
    expect(blur).toEqual([...blur].sort((a, b) => b - a));
    expect(sharpest.members[0]!.keep).toBe(true);
    const uploaded = (await plan({ scope: 'exact', keep: 'first_uploaded' })).groups.find((g) => g.members.some((m) => m.file_name === 'dog.jpg'))!;
    expect(uploaded.members[0]!.file_name).toBe(await firstRecorded('dog.jpg', 'dog-copy.jpg'));
    expect(uploaded.members[0]!.value).toEqual(expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/));
  });

  it('bad input is a 422 naming the field; a viewer gets 403, a stranger 404; nothing changes', async () => {
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ scope: 'fuzzy', keep: 'sharpest' }, 422, 'scope'],
      [{ scope: 'exact', keep: 'biggest' }, 422, 'keep'],
      [{ keep: 'sharpest' }, 422, 'scope'],
      [{ scope: 'near', keep: 'sharpest', level: 5 }, 422, 'level'],
      [{ scope: 'exact', keep: 'sharpest', level: 1 }, 422, 'level applies to scope near only'],
      // No cosine threshold is offered: a cluster is the group.
      [{ scope: 'near', keep: 'sharpest', threshold: 0.9 }, 422, "body must NOT have additional properties: 'threshold'"],
      [{ scope: 'exact', keep: 'custom_field' }, 422, 'keep custom_field needs field'],
      [{ scope: 'exact', keep: 'custom_field', field: 'score' }, 422, 'keep custom_field needs order'],
      [{ scope: 'exact', keep: 'sharpest', field: 'score', order: 'asc' }, 422, 'field and order apply to keep custom_field only'],
      [{ scope: 'exact', keep: 'custom_field', field: 'mood', order: 'asc' }, 422, "field: 'mood' is not a custom metadata field of this dataset; its fields are parts, score"],
      [{ scope: 'exact', keep: 'custom_field', field: 'parts', order: 'asc' }, 422, "field: 'parts' is a string_list field, which has no order"],
    ];
    for (const dryRun of [true, false]) {
      for (const [body, status, detail] of cases) {
        const res = await dedup({ ...body, dry_run: dryRun });
        expect(res.status, JSON.stringify(body)).toBe(status);
        expect(res.body.detail, JSON.stringify(body)).toEqual(expect.stringContaining(detail));
      }
    }
    expect(await dedup({ scope: 'exact', keep: 'sharpest', dry_run: true }, viewer)).toMatchObject({ status: 403, body: { detail: expect.any(String) } });
    expect(await dedup({ scope: 'exact', keep: 'sharpest' }, viewer)).toMatchObject({ status: 403 });
    const stranger = await server.createUser();
    expect(await dedup({ scope: 'exact', keep: 'sharpest' }, stranger)).toMatchObject({ status: 404, body: { detail: 'Dataset not found' } });
    // A version without an index has no clusters: near is a 409 with the reason (the row is put back after).
    const { db } = server.loupe.container.database;
    const { head_version_id: head } = await db.selectFrom('datasets').select('head_version_id').where('id', '=', datasetId).executeTakeFirstOrThrow();
    const index = await db.deleteFrom('version_indexes').where('version_id', '=', head!).returningAll().execute();
    try {
      for (const dryRun of [true, false]) {
        expect(await dedup({ scope: 'near', keep: 'sharpest', dry_run: dryRun })).toMatchObject({
          status: 409,
          body: { detail: `Dataset ${datasetId} has no near-duplicate index: its current version was never indexed, so it has no clusters; use scope exact, or reindex it first` },
        });
      }
    } finally {
      await db.insertInto('version_indexes').values(index as never).execute();
    }
    expect(await current()).toHaveLength(9);
    expect((await server.api(owner.token, 'GET', `/api/v1/tasks?dataset_id=${datasetId}&task_type=DEDUP`)).body.total).toBe(0);
  });
});

describe('dedup task', () => {
  it('snapshots the head, removes the duplicates (counts, export), and restoring the snapshot brings them back', async () => {
    const res = await dedup({ scope: 'exact', keep: 'largest_resolution' });
    expect(res.status, res.text).toBe(202);
    expect(res.headers.get('location')).toBe(`/api/v1/tasks/${res.body.task_id}`);
    const task = await waitForTask(server, owner, datasetId, res.body.task_id, (t) => ['COMPLETED', 'FAILED'].includes(t.status), 'dedup', 30_000);
    expect(task).toMatchObject({ status: 'COMPLETED', task_type: 'DEDUP', progress_percentage: 100 });
    const dogKeeper = await firstRecorded('dog.jpg', 'dog-copy.jpg');
    const removed = [dogKeeper === 'dog.jpg' ? 'dog-copy.jpg' : 'dog.jpg', 'horses.jpg'];
    const left = [...ids.keys()].filter((n) => !removed.includes(n)).sort();
    expect(await current()).toEqual(left);
    expect(await datasetRow()).toMatchObject({ n_images: 7, status_new: 'READY' });
    const issues = async () => (await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/issues`)).body.issues.exact_duplicates;
    expect(await issues()).toBe(0);

    const snapshots = (await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/snapshot`)).body as Array<Record<string, any>>;
    const taken = snapshots.find((s) => String(s.snapshot_name).startsWith('Before dedup'))!;
    expect(taken.snapshot_name).toMatch(/^Before dedup \d{4}-\d{2}-\d{2} \d{2}:\d{2} \(exact, largest_resolution\)$/);
    expect(taken).toMatchObject({ n_images: 9, reason: 'manual' });
    expect(task.status_message).toBe(`Removed 2 media, kept 2 of 2 group(s); snapshot "${taken.snapshot_name}" holds the dataset as it was`);

    // The deduplicated set exports through the export routes as any version does.
    const json = JSON.parse((await exportArchive(server, owner, datasetId, 'file_name=deduped&export_format=json')).get('metadata.json')!.bytes.toString('utf8'));
    expect((json.media_items as Array<{ file_name: string }>).map((m) => m.file_name).sort()).toEqual(left);
    expect((await plan({ scope: 'exact', keep: 'largest_resolution' })).totals.groups).toBe(0);

    const restore = await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/snapshot/${taken.snapshot_id}/restore`);
    expect(restore.status, restore.text).toBe(202);
    const restoreTask = restore.headers.get('location')!.split('/').pop()!;
    await waitForTask(server, owner, datasetId, restoreTask, hasStatus('COMPLETED'), 'restore', 30_000);
    expect(await waitForDataset(server, owner, datasetId, ['READY'])).toMatchObject({ n_images: 9 });
    expect(await current()).toEqual([...ids.keys()].sort());
    expect(await issues()).toBe(4);
  });

  it('tag_only tags the others `duplicate` and removes nothing; a second dedup meanwhile is a 409 naming the running task', async () => {
    // The task's work reads the version's rows: held there, it stays RUNNING while the second request is refused.
    const res = await holdingLock(server, 'lock table version_rows in access exclusive mode', async () => {
      const started = await dedup({ scope: 'near', keep: 'largest_resolution', tag_only: true });
      expect(started.status, started.text).toBe(202);
      const again = await dedup({ scope: 'exact', keep: 'sharpest' });
      expect(again).toMatchObject({ status: 409, body: { detail: "Operation 'dedup' is blocked while DEDUP task is running" } });
      return started;
    });
    const task = await waitForTask(server, owner, datasetId, res.body.task_id, (t) => ['COMPLETED', 'FAILED'].includes(t.status), 'tag dedup', 30_000);
    expect(task.status, task.error_message).toBe('COMPLETED');
    expect(await current()).toEqual([...ids.keys()].sort());
    const tags = (await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/tags`)).body.tags;
    const planned = await plan({ scope: 'near', keep: 'largest_resolution' });
    expect(tags).toEqual([{ tag: 'duplicate', count: planned.totals.media_removed }]);
    expect(planned.totals.media_removed).toBeGreaterThanOrEqual(4);
    const vql = encodeURIComponent(JSON.stringify([{ tags: { op: 'is', value: 'duplicate' } }]));
    const tagged = await server.api(owner.token, 'GET', `/api/v1/explore/${datasetId}?previews_limit=100&vql=${vql}`);
    const taggedNames = tagged.body.clusters.flatMap((c: { previews: Array<{ file_name: string }> }) => c.previews.map((p) => p.file_name)).sort();
    expect(taggedNames).toEqual(planned.groups.flatMap((g) => g.members.filter((m) => !m.keep).map((m) => m.file_name)).sort());
    expect(taggedNames).toEqual(expect.arrayContaining(['person-crop.jpg', 'person-small.jpg']));
    expect((await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}`)).status).toBe(200);
  });
});
