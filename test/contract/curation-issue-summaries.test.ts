import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveExactDuplicateIds, liveMedianArea, oddArea } from '../../src/modules/explore/quality-issues.js';
import { histogramMedian, summariseOneHeadIssues } from '../../src/modules/versions/issue-summaries.js';
import { type UploadFile, createDataset, form, photo, waitForDataset } from '../support/ingest.js';
import { type TestServer, type TestUser, startTestServer, waitFor } from '../support/server.js';

/**
 * Exact duplicates, odd sizes and the issue counts are stored with a version when it becomes a head (migration 0047):
 * after creation, media attached later without a reindex (a copy that makes its original a duplicate, sizes that move
 * the median across a threshold), an edit by an Explore query, a head from before the migration and media analysed
 * before 0041 (no pixel hash), the stored sets equal what the version's media give when computed whole.
 */

let server: TestServer;
let owner: TestUser;
let datasetId: string;

const png = (width: number, height: number, background: string) => sharp({ create: { width, height, channels: 3, background } }).png().toBuffer();
const db = () => server.loupe.container.database.db;
const head = async () => (await db().selectFrom('datasets').select('head_version_id').where('id', '=', datasetId).executeTakeFirstOrThrow()).head_version_id!;

/** File names of the media a query of the version's stored issue rows, or of its media computed whole, selects. */
async function names(ids: ReturnType<typeof sql>): Promise<string[]> {
  const { rows } = await sql<{ file_name: string }>`select m.file_name from media m where m.id in (${ids}) order by 1`.execute(db());
  return rows.map((r) => r.file_name);
}

/** The head's stored exact duplicates and odd sizes, checked against its media computed whole; returns them. */
async function storedAsLive(): Promise<{ exact: string[]; odd: string[] }> {
  const v = sql`${await head()}::uuid`;
  const stored = (issue: string) => names(sql`select media_id from version_issue_media where version_id = ${v} and issue = ${issue}`);
  const exact = await stored('exact_duplicates');
  const odd = await stored('odd_size');
  expect(exact).toEqual(await names(liveExactDuplicateIds(v)));
  expect(odd).toEqual(
    await names(sql`select m.id from version_members vm join media m on m.id = vm.media_id where vm.version_id = ${v} and m.width is not null
      and ${oddArea(sql`m.width::float8 * m.height`, liveMedianArea(v))}`),
  );
  const { rows } = await sql<{ median_area: number }>`select median_area from version_issues where version_id = ${v}`.execute(db());
  expect(rows[0]!.median_area).toBe((await sql<{ a: number }>`select ${liveMedianArea(v)} as a`.execute(db())).rows[0]!.a);
  return { exact, odd };
}

/** The issues route's counts, each equal to what the Explore filter of its name lists, whose previews name the issue. */
async function counts(): Promise<Record<string, number>> {
  const res = await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/issues`);
  expect(res.status, res.text).toBe(200);
  for (const issue of ['exact_duplicates', 'odd_size']) {
    const page = await server.api(owner.token, 'GET', `/api/v1/explore/${datasetId}?issue_type=${issue}&previews_limit=1000`);
    const previews = page.body.clusters.flatMap((c: { previews: Array<{ issues: string[] }> }) => c.previews);
    expect(previews.length, issue).toBe(res.body.issues[issue]);
    for (const p of previews) expect(p.issues).toContain(issue);
  }
  return { n_media: res.body.n_media, ...res.body.issues };
}

/** Every preview of the unfiltered page (read from the cluster summaries), by file name: its issues. */
async function previewIssues(): Promise<Map<string, string[]>> {
  const page = await server.api(owner.token, 'GET', `/api/v1/explore/${datasetId}?previews_limit=20`);
  expect(page.status, page.text).toBe(200);
  return new Map(page.body.clusters.flatMap((c: { previews: Array<{ file_name: string; issues: string[] }> }) => c.previews.map((p) => [p.file_name, p.issues])));
}

async function addMedia(files: UploadFile[]): Promise<void> {
  const before = await head();
  const res = await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/add_media`, form(files));
  expect(res.status, res.text).toBe(202);
  await waitFor(async () => ((await head()) !== before ? true : undefined), { timeout: 60_000, what: 'media added' });
  await waitForDataset(server, owner, datasetId, ['PARTIAL INDEX']);
}

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.createUser();
  const dog = photo('dog.jpg');
  const files = [dog, photo('horses.jpg'), photo('person.jpg'), photo('chelsea.png'), { name: 'dog-copy.jpg', bytes: dog.bytes }, { name: 'tiny.png', bytes: await png(24, 24, '#c04040') }];
  const created = await createDataset(server, owner, 'issue-summaries', [files]);
  expect(created.dataset.status_new).toBe('READY');
  datasetId = created.datasetId;
}, 120_000);
afterAll(() => server?.close());

describe('stored issues of a version', () => {
  it('are written at creation and follow media attached later, an edit by query, and media that move the median', async () => {
    expect(await storedAsLive()).toEqual({ exact: ['dog-copy.jpg', 'dog.jpg'], odd: ['tiny.png'] });
    expect(await counts()).toMatchObject({ n_media: 6, exact_duplicates: 2, odd_size: 1 });
    const previews = await previewIssues();
    expect(previews.get('dog.jpg')).toContain('exact_duplicates');
    expect(previews.get('tiny.png')).toContain('odd_size');
    expect(previews.get('person.jpg')).not.toContain('odd_size');

    // A copy of horses.jpg's pixels attached without a reindex makes horses.jpg, inherited from the base, a duplicate too.
    const horses = photo('horses.jpg');
    await addMedia([{ name: 'horses-reencoded.png', bytes: await sharp(horses.bytes).png().toBuffer() }, { name: 'tiny2.png', bytes: await png(20, 20, '#40c040') }]);
    const { rows: bases } = await sql`select 1 from version_bases where version_id = ${await head()}::uuid`.execute(db());
    expect(bases).toHaveLength(1);
    expect(await storedAsLive()).toEqual({ exact: ['dog-copy.jpg', 'dog.jpg', 'horses-reencoded.png', 'horses.jpg'], odd: ['tiny.png', 'tiny2.png'] });
    expect(await counts()).toMatchObject({ n_media: 8, exact_duplicates: 4, odd_size: 2 });
    expect((await previewIssues()).get('horses.jpg')).toContain('exact_duplicates');

    // Selecting by a version issue in an edit reads the version's stored rows.
    const tagged = await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/media/tags`, { tags: ['dup'], query: { issue_type: 'exact_duplicates' } });
    expect(tagged.status, tagged.text).toBe(200);
    expect(tagged.body).toMatchObject({ matched: 4, changed: 4 });
    const odd = await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/media/tags`, { tags: ['odd'], query: { vql: [{ issues: { op: 'issue', value: 'odd_size', mode: 'out' } }] } });
    expect(odd.body).toMatchObject({ matched: 6, changed: 6 });
    expect(await storedAsLive()).toEqual({ exact: ['dog-copy.jpg', 'dog.jpg', 'horses-reencoded.png', 'horses.jpg'], odd: ['tiny.png', 'tiny2.png'] });

    // Seven 100×100 images bring the median down to 10,000 px: the photos above 16 times it become odd sizes.
    const small = await Promise.all(['#102030', '#203040', '#304050', '#405060', '#506070', '#607080', '#708090'].map(async (c, i) => ({ name: `small-${i}.png`, bytes: await png(100, 100, c) })));
    await addMedia(small);
    const after = await storedAsLive();
    expect(after.odd).toEqual(['dog-copy.jpg', 'dog.jpg', 'horses-reencoded.png', 'horses.jpg', 'person.jpg', 'tiny.png', 'tiny2.png']);
    expect(await counts()).toMatchObject({ n_media: 15, exact_duplicates: 4, odd_size: 7 });
  }, 120_000);

  it('a head without them (before migration 0047) is read from its media until the sweep stores them; media without a pixel hash share only bytes', async () => {
    const before = await counts();
    const v = await head();
    await sql`delete from version_issue_media where version_id = ${v}::uuid`.execute(db());
    await sql`delete from version_issues where version_id = ${v}::uuid`.execute(db());
    expect(await counts()).toEqual(before);
    // As analysed before migration 0041: the horses pair shares pixels only, so without them neither is a duplicate.
    await sql`update media set pixel_hash = null where file_name in ('horses.jpg', 'horses-reencoded.png')`.execute(db());
    while (await summariseOneHeadIssues(db()));
    expect((await storedAsLive()).exact).toEqual(['dog-copy.jpg', 'dog.jpg']);
    expect(await counts()).toEqual({ ...before, exact_duplicates: 2 });
  });

  it('the median of an area histogram is PostgreSQL percentile_cont(0.5)', async () => {
    for (const sample of [[5], [1, 2], [3, 3, 3, 7], [1, 2, 2, 9, 9, 9, 40], [4096, 10_000, 10_000, 271_360, 442_368, 442_368]]) {
      const areas = [...new Set(sample)].sort((a, b) => a - b);
      const n = areas.map((a) => sample.filter((x) => x === a).length);
      const { rows } = await sql<{ m: number }>`select percentile_cont(0.5) within group (order by x) as m from unnest(${sample}::float8[]) x`.execute(db());
      expect(histogramMedian(areas, n), String(sample)).toBe(rows[0]!.m);
    }
    expect(histogramMedian([], [])).toBeNull();
  });
});
