import sharp, { type Sharp } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportArchive, parquetRows } from '../support/exports.js';
import { type UploadFile, createDataset, photo } from '../support/ingest.js';
import { type TestServer, type TestUser, startTestServer } from '../support/server.js';

/**
 * Issue 29's quality issues over HTTP, on fixture photos and edits made from them: each Explore issue filter finds
 * exactly the media it should, the issues route counts them and lists the corrupt file, and both exports carry the
 * scores and flags.
 */

let server: TestServer;
let owner: TestUser;
let datasetId: string;

const jpeg = async (input: Sharp) => input.jpeg({ quality: 90 }).toBuffer();
const cut = (bytes: Buffer) => bytes.subarray(0, Math.floor(bytes.length * 0.6));

const EXPECTED: Record<string, string[]> = {
  exact_duplicates: ['dog-copy.jpg', 'dog.jpg', 'horses-reencoded.png', 'horses.jpg'],
  grayscale: ['person-gray.jpg'],
  low_information: ['flat.png'],
  odd_aspect_ratio: ['wide.jpg'],
  odd_size: ['tiny.png'],
};

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.createUser();
  const dog = photo('dog.jpg');
  const horses = photo('horses.jpg');
  const person = photo('person.jpg');
  const files: UploadFile[] = [
    dog,
    horses,
    person,
    photo('chelsea.png'),
    photo('coffee.png'),
    { name: 'dog-copy.jpg', bytes: dog.bytes },
    // Made from the decoded JPEG, so its pixels are exactly the JPEG's: bytes differ, pixels do not.
    { name: 'horses-reencoded.png', bytes: await sharp(horses.bytes).png().toBuffer() },
    { name: 'person-gray.jpg', bytes: await jpeg(sharp(person.bytes).grayscale()) },
    { name: 'flat.png', bytes: await sharp({ create: { width: 320, height: 240, channels: 3, background: '#3a7bd5' } }).png().toBuffer() },
    { name: 'wide.jpg', bytes: await jpeg(sharp(photo('coffee.png').bytes).extract({ left: 0, top: 150, width: 600, height: 100 })) },
    { name: 'tiny.png', bytes: await sharp(photo('chelsea.png').bytes).resize(24, 24).png().toBuffer() },
    // Its header reaches the scan data, so upload takes it; the decoder finds it cut short.
    { name: 'cut.jpg', bytes: cut(person.bytes) },
  ];
  const created = await createDataset(server, owner, 'curation', [files]);
  expect(created.dataset.status_new).toBe('READY');
  datasetId = created.datasetId;
}, 180_000);
afterAll(() => server?.close());

/** The file names Explore lists for a query, every cluster's every member. */
async function explored(query: string): Promise<string[]> {
  const res = await server.api(owner.token, 'GET', `/api/v1/explore/${datasetId}?previews_limit=1000&${query}`);
  expect(res.status, res.text).toBe(200);
  const clusters = res.body.clusters as Array<{ previews: Array<{ file_name: string }> }>;
  return clusters.flatMap((c) => c.previews.map((p) => p.file_name)).sort();
}

describe('issue 29 quality issues', () => {
  it('each Explore issue filter (issue_type and VQL) returns exactly the media with the issue', async () => {
    for (const [issue, names] of Object.entries(EXPECTED)) {
      expect(await explored(`issue_type=${issue}`), issue).toEqual(names);
      const vql = encodeURIComponent(JSON.stringify([{ issues: { op: 'issue', value: issue } }]));
      expect(await explored(`vql=${vql}`), issue).toEqual(names);
    }
    const all = await explored('');
    const notGray = encodeURIComponent(JSON.stringify([{ issues: { op: 'issue', value: 'grayscale', mode: 'out' } }]));
    expect(await explored(`vql=${notGray}`)).toEqual(all.filter((n) => n !== 'person-gray.jpg'));
    const notExact = encodeURIComponent(JSON.stringify([{ issues: { op: 'issue', value: 'exact_duplicates', mode: 'out' } }]));
    expect(await explored(`vql=${notExact}`)).toEqual(all.filter((n) => !EXPECTED.exact_duplicates!.includes(n)));
  });

  it('the issues route counts each issue as Explore finds it and lists the corrupt file with its reason', async () => {
    const res = await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/issues`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.n_media).toBe(11);
    expect(res.body.median_area).toBe(640 * 424);
    for (const [issue, names] of Object.entries(EXPECTED)) expect(res.body.issues[issue], issue).toBe(names.length);
    for (const issue of ['blur', 'dark', 'bright', 'outliers', 'duplicates']) {
      expect(res.body.issues[issue], issue).toBe((await explored(`issue_type=${issue}`)).length);
    }
    expect(res.body.issues.corrupt).toBe(1);
    expect(res.body.corrupt_files).toEqual([{ file_name: 'cut.jpg', reason: 'cannot decode jpeg image: VipsJpeg: premature end of JPEG image', uploaded_at: expect.any(String) }]);
    expect(res.body).toMatchObject({ page_number: 0, files_per_page: 100 });
    const past = await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/issues?page_number=1`);
    expect(past.body.corrupt_files).toEqual([]);
  });

  it('bad issue parameters are a 422 with the reason; a stranger gets 404', async () => {
    const unknown = await server.api(owner.token, 'GET', `/api/v1/explore/${datasetId}?issue_type=sideways`);
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail).toBe(
      'issue_type must be one of blur, dark, bright, outliers, duplicates, exact_duplicates, odd_aspect_ratio, odd_size, grayscale, low_information, mislabels, class_outliers',
    );
    const corrupt = await server.api(owner.token, 'GET', `/api/v1/explore/${datasetId}?issue_type=corrupt`);
    expect(corrupt.status).toBe(422);
    expect(corrupt.body.detail).toBe('issue_type: corrupt files have no media to explore; GET /api/v1/dataset/{dataset_id}/issues lists them with their reasons');
    const page = await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/issues?page_number=-1`);
    expect(page.status).toBe(422);
    expect(page.body.detail).toEqual(expect.stringContaining('page_number'));
    const stranger = await server.createUser();
    const hidden = await server.api(stranger.token, 'GET', `/api/v1/dataset/${datasetId}/issues`);
    expect(hidden.status).toBe(404);
  });

  it('JSON and Parquet exports carry the scores and the flags of every issue', async () => {
    const json = JSON.parse((await exportArchive(server, owner, datasetId, 'file_name=issues&export_format=json')).get('metadata.json')!.bytes.toString('utf8'));
    const parquet = await parquetRows((await exportArchive(server, owner, datasetId, 'file_name=issues&export_format=parquet')).get('metadata.parquet')!.bytes);
    const FLAGS: Record<string, string> = {
      exact_duplicates: 'is_exact_duplicate',
      grayscale: 'is_grayscale',
      low_information: 'is_low_information',
      odd_aspect_ratio: 'is_odd_aspect_ratio',
      odd_size: 'is_odd_size',
    };
    for (const rows of [json.media_items as Array<Record<string, any>>, parquet]) {
      expect(rows).toHaveLength(11);
      for (const [issue, column] of Object.entries(FLAGS)) {
        expect(rows.filter((r) => r[column] === true).map((r) => r.file_name).sort(), column).toEqual(EXPECTED[issue]);
      }
      const byName = new Map(rows.map((r) => [r.file_name as string, r]));
      expect(byName.get('dog.jpg')!.pixel_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(byName.get('horses.jpg')!.pixel_hash).toBe(byName.get('horses-reencoded.png')!.pixel_hash);
      expect(byName.get('wide.jpg')!.aspect_ratio).toBe(6);
      expect(byName.get('tiny.png')!.size_ratio).toBeCloseTo((24 * 24) / (640 * 424), 6);
      expect(byName.get('person-gray.jpg')!.color_spread).toBe(0);
      expect(byName.get('flat.png')!.entropy).toBe(0);
      expect(byName.get('dog.jpg')!.entropy).toBeGreaterThan(6);
    }
    const wide = (json.media_items as Array<Record<string, any>>).find((m) => m.file_name === 'wide.jpg')!;
    expect(wide.metadata_items).toContainEqual({ type: 'issue', properties: { issue_type: 'odd_aspect_ratio', confidence: 1 } });
  });
});
