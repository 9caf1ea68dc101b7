import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeListAnchors } from '../../src/modules/media/list-anchors.js';
import { type TestServer, type TestUser, startTestServer } from '../support/server.js';
import { createDataset, generatedJpegs } from '../support/ingest.js';

let server: TestServer;
let owner: TestUser;
let datasetId: string;

interface Listed {
  media_id: string;
  created_at: string;
  media_type: string;
  tags: string[];
}

const list = (query: string) => server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/media?${query}`);
/** Oldest first, then by id: the list's order. */
const byAge = (a: Listed, b: Listed) => a.created_at.localeCompare(b.created_at) || (a.media_id < b.media_id ? -1 : a.media_id > b.media_id ? 1 : 0);

async function pages(limit: number, extra = ''): Promise<Listed[]> {
  const out: Listed[] = [];
  for (let offset = 0; ; offset += limit) {
    const res = await list(`limit=${limit}&offset=${offset}${extra}`);
    expect(res.status).toBe(200);
    out.push(...res.body.media);
    if (res.body.media.length < limit) return out;
  }
}

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.createUser();
  const [first, second] = [await generatedJpegs(7), await generatedJpegs(6)];
  const created = await createDataset(server, owner, 'media-list', [first, second]);
  expect(created.dataset).toMatchObject({ status_new: 'READY', n_images: 13 });
  datasetId = created.datasetId;
}, 180_000);
afterAll(() => server?.close());

describe('media list', () => {
  it('pages every media once, oldest first, with the total, by offset and by type', async () => {
    const all = await list('limit=100');
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(13);
    const media = all.body.media as Listed[];
    expect(media).toHaveLength(13);
    expect(media.map((m) => m.media_id)).toEqual([...media].sort(byAge).map((m) => m.media_id));
    expect((await pages(4)).map((m) => m.media_id)).toEqual(media.map((m) => m.media_id));
    expect((await pages(5, '&media_type=IMAGE')).map((m) => m.media_id)).toEqual(media.map((m) => m.media_id));
    expect((await list('limit=5&media_type=VIDEO')).body).toEqual({ media: [], total: 0 });
    expect((await list('limit=5&offset=13')).body).toEqual({ media: [], total: 13 });
  });

  it('keeps the order and the total when the head only inherits its rows from a snapshot', async () => {
    const before = ((await list('limit=100')).body.media as Listed[]).map((m) => m.media_id);
    const tagged = before.filter((_, i) => i % 3 === 0);
    const res = await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/media/tags`, { tags: ['kept'], media_ids: tagged });
    expect(res.status).toBeLessThan(300);
    const after = await pages(4);
    expect(after.map((m) => m.media_id)).toEqual(before);
    expect(after.filter((m) => m.tags.includes('kept')).map((m) => m.media_id)).toEqual(tagged);
    expect((await list('limit=2&offset=12')).body).toMatchObject({ total: 13, media: [{ media_id: before[12] }] });
  });

  it('answers every page the same from list anchors (a page starts at the last anchor before its offset)', async () => {
    const { db } = server.loupe.container.database;
    const before = ((await list('limit=100')).body.media as Listed[]).map((m) => m.media_id);
    const head = (await db.selectFrom('datasets').select('head_version_id').where('id', '=', datasetId).executeTakeFirstOrThrow()).head_version_id!;
    for (const stride of [2, 3, 12]) {
      await db.transaction().execute(async (trx) => {
        await sql`delete from media_list_anchors where version_id = ${head}::uuid`.execute(trx);
        await writeListAnchors(trx, head, stride);
      });
      const { rows } = await sql<{ media_type: string; position: number }>`select media_type, position from media_list_anchors
        where version_id = ${head}::uuid order by media_type, position`.execute(db);
      const positions = Array.from({ length: Math.floor(12 / stride) }, (_, i) => (i + 1) * stride);
      expect(rows).toEqual([...positions.map((position) => ({ media_type: '', position })), ...positions.map((position) => ({ media_type: 'IMAGE', position }))]);
      for (const limit of [1, 4, 5]) {
        expect((await pages(limit)).map((m) => m.media_id)).toEqual(before);
        expect((await pages(limit, '&media_type=IMAGE')).map((m) => m.media_id)).toEqual(before);
      }
      expect((await list('limit=5&offset=7&media_type=VIDEO')).body).toEqual({ media: [], total: 0 });
      expect((await list('limit=5&offset=13')).body).toEqual({ media: [], total: 13 });
    }
  });
});
