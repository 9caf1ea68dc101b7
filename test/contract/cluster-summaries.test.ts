import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, type TestUser, startTestServer, waitFor } from '../support/server.js';
import { type UploadFile, createDataset, form, photo, waitForDataset } from '../support/ingest.js';
import type { Db } from '../../src/adapters/db/database.js';
import { summariseHeadFacetsIn } from '../../src/modules/versions/facet-summaries.js';
import { PHOTO_EDITS } from '../support/photo-edits.js';
import { hasStatus, waitForTask } from '../support/tasks.js';

/**
 * An unfiltered, size-sorted Explore page is read from the cluster summaries stored with the head version, and a page
 * filtered by one tag or label from its facet summaries (every facet here: the floor is one media); any other filter
 * reads the version's rows. `media_type=IMAGE,VIDEO_FRAME` filters nothing out, so after every kind of change both
 * must answer the same page, and the head must hold summaries (else the first page was not read from them).
 */

let server: TestServer;
let owner: TestUser;
let datasetId: string;
let ids: Map<string, string>;

const url = (p: string, id = datasetId) => `/api/v1/dataset/${id}${p}`;
const latestTask = async (id: string, type: string) => (await server.api(owner.token, 'GET', `/api/v1/tasks?dataset_id=${id}&task_type=${type}`)).body.tasks[0];
const head = async (id: string) =>
  (await server.loupe.container.database.db.selectFrom('datasets').select('head_version_id').where('id', '=', id).executeTakeFirstOrThrow()).head_version_id!;
const csvForm = (content: string) => {
  const body = new FormData();
  body.append('file', new Blob([content]), 'fields.csv');
  return body;
};

/** An Explore page without its signed links (signed per request). */
async function page(id: string, query: string) {
  const res = await server.api(owner.token, 'GET', `/api/v1/explore/${id}?${query}`);
  expect(res.status, res.text).toBe(200);
  for (const cluster of res.body.clusters) {
    for (const preview of cluster.previews) {
      expect(preview.media_uri).toEqual(expect.any(String));
      preview.media_uri = 'signed';
      if (preview.media_thumb_uri !== null) preview.media_thumb_uri = 'signed';
    }
  }
  return res.body;
}

/** The head's summaries answer every level's pages exactly as the rows do; returns the level-0 page. */
async function expectSummariesRight(id: string, media: number, withViews = true) {
  const versionId = await head(id);
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from version_summaries where version_id = ${versionId}::uuid`.execute(server.loupe.container.database.db);
  expect(rows[0]!.n).toBe(1);
  for (let threshold = 0; threshold <= 4; threshold++) {
    for (const previews of [1, 3, 20, 1000]) {
      const query = `threshold=${threshold}&previews_limit=${previews}`;
      const summarised = await page(id, query);
      expect(summarised).toEqual(await page(id, `${query}&media_type=IMAGE,VIDEO_FRAME`));
      expect(summarised.clusters.reduce((n: number, c: { n_media: number }) => n + c.n_media, 0)).toBe(media);
      expect(summarised.total_clusters).toBe(summarised.clusters.length);
    }
  }
  expect(await page(id, 'threshold=0&page_number=1&previews_limit=5')).toEqual(await page(id, 'threshold=0&page_number=1&previews_limit=5&media_type=IMAGE'));
  if (withViews) {
    const views = (await server.api(owner.token, 'GET', url('/views', id))).body.views as Array<{ name: string; stats: unknown; total_results: number }>;
    const stats = (name: string) => views.find((v) => v.name === name);
    expect(stats('all')).toMatchObject({ total_results: media, stats: { n_images: media, n_video_frames: 0, n_videos: 0 } });
    expect(stats('all')!.stats).toEqual(stats('all, filtered')!.stats);
  }
  return page(id, 'threshold=0&previews_limit=20');
}

/** The head's facet summaries, once written, answer every page filtered by one of `facets` ('tag:pet') as the rows do. */
async function expectFacetsRight(id: string, facets: string[]) {
  const { db } = server.loupe.container.database;
  const versionId = await head(id);
  await waitFor(
    async () => ((await sql<{ n: number }>`select count(*)::int as n from version_facets where version_id = ${versionId}::uuid`.execute(db)).rows[0]!.n === 1 ? true : undefined),
    { timeout: 30_000, what: 'the head facet summaries' },
  );
  const { rows } = await sql<{ facet: string }>`select facet || ':' || value as facet from facet_totals where version_id = ${versionId}::uuid order by 1`.execute(db);
  expect(rows.map((r) => r.facet)).toEqual([...facets].sort());
  for (const facet of facets) {
    const [kind, value] = facet.split(':') as [string, string];
    const filter = `${kind === 'tag' ? 'tags' : 'labels'}=${encodeURIComponent(value)}`;
    for (let threshold = 0; threshold <= 4; threshold++) {
      for (const previews of [1, 20, 1000]) {
        const query = `${filter}&threshold=${threshold}&previews_limit=${previews}`;
        const summarised = await page(id, query);
        expect(summarised.clusters.length).toBeGreaterThan(0);
        expect(summarised).toEqual(await page(id, `${query}&media_type=IMAGE,VIDEO_FRAME`));
      }
    }
    const past = `${filter}&threshold=0&page_number=1`;
    expect(await page(id, past)).toEqual(await page(id, `${past}&media_type=IMAGE`));
  }
}

/**
 * Of `facets`, those a head of `media` media summarises at a floor of one: the most common first (then by name), while
 * their members together are no more than its media. Each facet's pages must answer as the rows do, summarised or not.
 */
async function commonFacets(id: string, facets: string[], media: number): Promise<string[]> {
  const counted: Array<[string, number]> = [];
  for (const facet of facets) {
    const [kind, value] = facet.split(':') as [string, string];
    const query = `${kind === 'tag' ? 'tags' : 'labels'}=${encodeURIComponent(value)}&threshold=0&previews_limit=20`;
    const rows = await page(id, `${query}&media_type=IMAGE,VIDEO_FRAME`);
    expect(await page(id, query)).toEqual(rows);
    counted.push([facet, rows.clusters.reduce((n: number, c: { n_media: number }) => n + c.n_media, 0)]);
  }
  counted.sort(([a, n], [b, m]) => m - n || (a < b ? -1 : 1));
  let members = 0;
  return counted.filter(([, n]) => (members += n) <= media).map(([facet]) => facet);
}

/** Forgets the facet summaries of a version, as if written before they existed. */
async function dropFacets(versionId: string, trx?: Db): Promise<void> {
  if (!trx) return server.loupe.container.database.db.transaction().execute((t) => dropFacets(versionId, t));
  for (const table of ['version_facets', 'facet_totals', 'facet_summaries']) await sql`delete from ${sql.table(table)} where version_id = ${versionId}::uuid`.execute(trx);
}

async function addMedia(files: UploadFile[], reindex: boolean) {
  const body = form(files);
  if (reindex) body.append('auto_reindex', 'true');
  const res = await server.api(owner.token, 'POST', url('/add_media'), body);
  expect(res.status, res.text).toBe(202);
  await waitFor(async () => ((await latestTask(datasetId, 'MEDIA_ADDITION'))?.status === 'COMPLETED' ? true : undefined), 60_000, 'media added');
  await waitForDataset(server, owner, datasetId, reindex ? ['READY'] : ['PARTIAL INDEX']);
  const list = await server.api(owner.token, 'GET', url('/media?limit=100'));
  ids = new Map(list.body.media.map((m: { file_name: string; media_id: string }) => [m.file_name, m.media_id]));
}

beforeAll(async () => {
  server = await startTestServer({ env: { FACET_SUMMARY_MIN_MEDIA: '1' } });
  owner = await server.createUser();
  const created = await createDataset(server, owner, 'summaries', [[photo('dog.jpg'), photo('horses.jpg'), photo('person.jpg')]]);
  expect(created.dataset.status_new).toBe('READY');
  datasetId = created.datasetId;
  const list = await server.api(owner.token, 'GET', url('/media?limit=100'));
  ids = new Map(list.body.media.map((m: { file_name: string; media_id: string }) => [m.file_name, m.media_id]));
}, 120_000);
afterAll(() => server?.close());

// Each step changes the dataset the next one checks, so the steps keep their order even in a shuffled run.
describe('cluster summaries stay right', { shuffle: false }, () => {
  let creationSnapshot: string;

  it('after the dataset is created and indexed', async () => {
    for (const [name, query] of [['all', ''], ['all, filtered', '?media_type=IMAGE,VIDEO_FRAME']]) {
      expect((await server.api(owner.token, 'POST', `${url('/views')}${query}`, { name, alerting_enabled: false })).status).toBe(200);
    }
    const first = await expectSummariesRight(datasetId, 3);
    expect(first.clusters).toHaveLength(3);
    creationSnapshot = (await server.api(owner.token, 'POST', url('/snapshot'), { name: 'three' })).body.snapshot_id;
    expect(creationSnapshot).toEqual(expect.any(String));
  });

  it('after media are added without a reindex (a near-duplicate joins its cluster) and with one', async () => {
    const dog = photo('dog.jpg').bytes;
    await addMedia([{ name: 'dog-half.jpg', bytes: await PHOTO_EDITS['half-q30']!(dog) }, photo('coffee.png')], false);
    const partial = await expectSummariesRight(datasetId, 5);
    const dogs = partial.clusters.find((c: { previews: Array<{ file_name: string }> }) => c.previews.some((p) => p.file_name === 'dog.jpg'));
    expect(dogs.previews.map((p: { file_name: string }) => p.file_name).sort()).toEqual(['dog-half.jpg', 'dog.jpg']);
    await addMedia([photo('kite.jpg')], true);
    await expectSummariesRight(datasetId, 6);
  });

  it('after tags and labels are edited, and the edits show on the summarised page', async () => {
    const tagged = await server.api(owner.token, 'POST', url('/media/tags'), { tags: ['pet'], media_ids: [ids.get('dog.jpg'), ids.get('dog-half.jpg')] });
    expect(tagged.body).toEqual({ matched: 2, changed: 2 });
    const labelled = await server.api(owner.token, 'PUT', url('/media/label'), { label: 'animal', media_ids: [ids.get('horses.jpg')] });
    expect(labelled.body).toEqual({ matched: 1, changed: 1 });
    const after = await expectSummariesRight(datasetId, 6);
    const dogs = after.clusters.find((c: { previews: Array<{ file_name: string }> }) => c.previews.some((p) => p.file_name === 'dog.jpg'));
    expect(dogs.user_tags).toEqual(['pet']);
    expect(after.clusters.find((c: { labels: string[] }) => c.labels.includes('animal')).previews.map((p: { file_name: string }) => p.file_name)).toEqual(['horses.jpg']);
    await expectFacetsRight(datasetId, ['tag:pet', 'label:animal']);
    const petPage = await page(datasetId, 'tags=pet&threshold=0');
    expect(petPage.clusters.flatMap((c: { previews: Array<{ file_name: string }> }) => c.previews.map((p) => p.file_name)).sort()).toEqual(['dog-half.jpg', 'dog.jpg']);
    // Above a floor of two media, the label on one is not summarised: its pages come from the rows.
    const { db } = server.loupe.container.database;
    const versionId = await head(datasetId);
    const animal = await page(datasetId, 'labels=animal&threshold=0');
    // Dropped and written again in one transaction, so the sweep never sees the head without them meanwhile.
    await db.transaction().execute(async (trx) => {
      await dropFacets(versionId, trx);
      expect(await summariseHeadFacetsIn(trx, datasetId, 2)).toBe(true);
      expect(await summariseHeadFacetsIn(trx, datasetId, 2)).toBe(false);
    });
    const { rows } = await sql<{ facet: string }>`select facet || ':' || value as facet from facet_totals where version_id = ${versionId}::uuid`.execute(db);
    expect(rows.map((r) => r.facet)).toEqual(['tag:pet']);
    expect(await page(datasetId, 'labels=animal&threshold=0')).toEqual(animal);
    expect(await page(datasetId, 'tags=pet&threshold=0')).toEqual(petPage);
    const removed = await server.api(owner.token, 'POST', url('/media/tags/remove'), { tags: ['pet'], media_ids: [ids.get('dog.jpg')] });
    expect(removed.body).toEqual({ matched: 1, changed: 1 });
    await expectSummariesRight(datasetId, 6);
    await expectFacetsRight(datasetId, ['tag:pet', 'label:animal']);
    expect((await page(datasetId, 'tags=pet&threshold=0')).clusters.flatMap((c: { previews: Array<{ file_name: string }> }) => c.previews.map((p) => p.file_name))).toEqual(['dog-half.jpg']);
  });

  it('for the most common facets first, with no more members than the version has media', async () => {
    const all = [...ids.values()];
    expect(all).toHaveLength(6);
    const tagged = await server.api(owner.token, 'POST', url('/media/tags'), { tags: ['common'], media_ids: all });
    expect(tagged.body).toEqual({ matched: 6, changed: 6 });
    // 'common' (6 media) fills the six; 'pet' (1) and 'animal' (1) are grouped from the rows.
    await expectFacetsRight(datasetId, ['tag:common']);
    for (const query of ['tags=pet&threshold=0', 'labels=animal&threshold=1&previews_limit=3']) {
      expect(await page(datasetId, query)).toEqual(await page(datasetId, `${query}&media_type=IMAGE,VIDEO_FRAME`));
    }
    const removed = await server.api(owner.token, 'POST', url('/media/tags/remove'), { tags: ['common'], media_ids: all });
    expect(removed.body).toEqual({ matched: 6, changed: 6 });
    await expectFacetsRight(datasetId, ['tag:pet', 'label:animal']);
  });

  it('after custom metadata is imported', async () => {
    const res = await server.api(owner.token, 'POST', url('/custom_metadata'), csvForm('file_name,mood\ndog.jpg,happy\nkite.jpg,windy\n'));
    expect(res.status, res.text).toBe(202);
    await waitForTask(server, owner, datasetId, res.body.task_id, hasStatus('COMPLETED'), 'import done', 30_000);
    await expectSummariesRight(datasetId, 6);
    await expectFacetsRight(datasetId, ['tag:pet', 'label:animal']);
  });

  it('after a snapshot is restored', async () => {
    const res = await server.api(owner.token, 'POST', url(`/snapshot/${creationSnapshot}/restore`));
    expect(res.status, res.text).toBe(202);
    await waitFor(async () => ((await latestTask(datasetId, 'SNAPSHOT_RESTORE'))?.status === 'COMPLETED' ? true : undefined), 30_000, 'restored');
    await waitForDataset(server, owner, datasetId, ['READY']);
    const restored = await expectSummariesRight(datasetId, 3);
    expect(restored.clusters.flatMap((c: { previews: Array<{ file_name: string }> }) => c.previews.map((p) => p.file_name)).sort()).toEqual(['dog.jpg', 'horses.jpg', 'person.jpg']);
    await expectFacetsRight(datasetId, []);
    expect((await page(datasetId, 'tags=pet')).clusters).toEqual([]);
  });

  it('in a clone', async () => {
    const current = (await server.api(owner.token, 'GET', url('/snapshot'))).body.find((s: { is_current: boolean }) => s.is_current);
    const before = (await server.api(owner.token, 'GET', '/api/v1/datasets')).body.map((d: { id: string }) => d.id);
    const res = await server.api(owner.token, 'POST', url(`/snapshot/${current.snapshot_id}/clone`));
    expect(res.status, res.text).toBe(202);
    const clone = (await server.api(owner.token, 'GET', '/api/v1/datasets')).body.find((d: { id: string }) => !before.includes(d.id));
    await waitForDataset(server, owner, clone.id, ['READY']);
    const cloned = await expectSummariesRight(clone.id, 3);
    expect(cloned).toEqual(await page(datasetId, 'threshold=0&previews_limit=20'));
    await expectFacetsRight(clone.id, []);
  });

  it('for a head written before summaries existed: its pages come from the rows until the sweep summarises it', async () => {
    const { db } = server.loupe.container.database;
    const tagged = await server.api(owner.token, 'POST', url('/media/tags'), { tags: ['kept'], media_ids: [ids.get('dog.jpg')] });
    expect(tagged.body).toEqual({ matched: 1, changed: 1 });
    await expectFacetsRight(datasetId, ['tag:kept']);
    const before = await page(datasetId, 'threshold=0&previews_limit=20');
    const keptPage = await page(datasetId, 'tags=kept&threshold=0');
    const versionId = await head(datasetId);
    await db.transaction().execute(async (trx) => {
      await sql`delete from cluster_summaries where version_id = ${versionId}::uuid`.execute(trx);
      await sql`delete from version_summaries where version_id = ${versionId}::uuid`.execute(trx);
    });
    await dropFacets(versionId);
    expect(await page(datasetId, 'tags=kept&threshold=0')).toEqual(keptPage);
    expect(await page(datasetId, 'threshold=0&previews_limit=20')).toEqual(before);
    await waitFor(
      async () => ((await sql<{ n: number }>`select count(*)::int as n from version_summaries where version_id = ${versionId}::uuid`.execute(db)).rows[0]!.n === 1 ? true : undefined),
      { timeout: 30_000, what: 'the summaries sweep' },
    );
    expect(await expectSummariesRight(datasetId, 3)).toEqual(before);
    await expectFacetsRight(datasetId, ['tag:kept']);
  });
});

describe('cluster summaries of detected objects', () => {
  it('count the objects of an enriched copy, and stay right after an object is relabelled', { timeout: 240_000 }, async () => {
    const { datasetId: source } = await createDataset(server, owner, 'objects', [[photo('dog.jpg'), photo('kite.jpg')]]);
    const res = await server.api(owner.token, 'POST', url('/enrich_dataset', source), { enrichment_models: { OBJECT_DETECTION: 'vl_object_detector_v00' } });
    expect(res.status, res.text).toBe(200);
    const copyId = res.body.dataset_id as string;
    await waitForDataset(server, owner, copyId, ['READY'], 240_000);
    const enriched = await expectSummariesRight(copyId, 2, false);
    const objects = enriched.clusters.reduce((n: number, c: { n_objects: number }) => n + c.n_objects, 0);
    expect(objects).toBe((await server.api(owner.token, 'GET', `/api/v1/dataset/${copyId}`)).body.n_objects);
    expect(objects).toBeGreaterThanOrEqual(2);
    // Every member is a preview here, so the clusters' labels are every detected object's.
    const labelsOf = (p: { clusters: Array<{ labels: string[] }> }) => [...new Set(p.clusters.flatMap((c) => c.labels))].map((l) => `label:${l}`);
    expect(labelsOf(enriched)).toContain('label:dog');
    await expectFacetsRight(copyId, await commonFacets(copyId, labelsOf(enriched), 2));

    const dog = (await page(copyId, 'entity_type=OBJECTS&threshold=0&labels=dog&previews_limit=20')).clusters[0].previews.find((o: { file_name: string }) => o.file_name === 'dog.jpg');
    const relabelled = await server.api(owner.token, 'PUT', url('/objects/label', copyId), { object_ids: [dog.object_id], label: 'golden retriever' });
    expect(relabelled.body).toEqual({ matched: 1, changed: 1 });
    const after = await expectSummariesRight(copyId, 2, false);
    expect(after.clusters.find((c: { labels: string[] }) => c.labels.includes('golden retriever')).previews.map((p: { file_name: string }) => p.file_name)).toEqual(['dog.jpg']);
    await expectFacetsRight(copyId, await commonFacets(copyId, labelsOf(after), 2));
  });
});
