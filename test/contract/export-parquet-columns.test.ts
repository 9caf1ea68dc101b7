import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forEachItemPage, itemsQuery } from '../../src/modules/exports/export-items.js';
import { type ExportRow, exportColumns, metadataRow } from '../../src/modules/exports/metadata/columns.js';
import type { FieldType } from '../../src/core/custom-fields.js';
import { exportArchive, parquetRows } from '../support/exports.js';
import { createDataset, generatedJpegs, photo } from '../support/ingest.js';
import { type TestServer, type TestUser, startTestServer } from '../support/server.js';
import { waitForTask } from '../support/tasks.js';
import { readZip } from '../support/zip.js';

let server: TestServer;
let owner: TestUser;
let datasetId: string;
let versionId: string;
const ids = new Map<string, string>();

const db = () => server.loupe.container.database.db;

const FIELD_TYPES: Record<string, FieldType> = { weather: 'string', score: 'number', outdoor: 'boolean', taken: 'datetime', parts: 'string_list', "it's": 'string' };

/** The values CSV and JSON mangle most easily: separators, quotes, newlines, empty strings, NULL look-alikes, non-ASCII. */
const OBJECTS = [
  { object_id: 'o1', label: 'zebra', score: 0.8734, box: { x: 1.5, y: 2, width: 10, height: 20.25 }, caption: 'a "striped" horse,\nright', clusters: ['c'] },
  { object_id: 'o2', label: 'Äpfel\\', score: 1, box: { x: 0, y: 0, width: 3, height: 4 } },
  { object_id: 'o3', label: 'zebra', score: 0.5, box: { x: 7, y: 8, width: 9, height: 10 }, caption: '' },
];

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.createUser();
  // Dog.JPG shares dog.jpg's name case-insensitively: both get the media id in their image_filename.
  const [other] = await generatedJpegs(1);
  ({ datasetId } = await createDataset(server, owner, 'columns', [[photo('dog.jpg'), photo('horses.jpg'), photo('person.jpg'), { ...other!, name: 'Dog.JPG' }]]));
  const media = await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/media?limit=10`);
  for (const m of media.body.media as Array<{ file_name: string; media_id: string }>) ids.set(m.file_name, m.media_id);
  const dataset = await db().selectFrom('datasets').select('head_version_id').where('id', '=', datasetId).executeTakeFirstOrThrow();
  versionId = dataset.head_version_id!;
  const set = async (file: string, caption: string | null, objects: unknown, ocr: string | null, tags: string[], label: string | null, fields: Record<string, unknown>) => {
    const id = ids.get(file)!;
    await sql`update version_rows set caption = ${caption}, objects = ${objects === null ? null : JSON.stringify(objects)}::jsonb,
      enrichment = ${ocr === null ? null : JSON.stringify({ ocr: { text: ocr } })}::jsonb where media_id = ${id}::uuid`.execute(db());
    await sql`insert into annotation_rows (version_id, media_id, tags, label) values (${versionId}::uuid, ${id}::uuid, ${tags}::text[], ${label})`.execute(db());
    await sql`insert into field_rows (version_id, media_id, custom_fields) values (${versionId}::uuid, ${id}::uuid, ${JSON.stringify(fields)}::jsonb)`.execute(db());
  };
  await sql`update versions set field_types = ${JSON.stringify(FIELD_TYPES)}::jsonb where id = ${versionId}::uuid`.execute(db());
  await set('dog.jpg', 'line one\nline two, "quoted"', OBJECTS, 'STOP\tsign\r\n', ['a,b', 'q"t', ''], 'x,y', {
    weather: '',
    score: 1.5e-7,
    outdoor: false,
    taken: '2024-05-01T10:00:00.000Z',
    parts: ['leg', 'ta,il', '"'],
    "it's": '\\N',
  });
  await set('horses.jpg', '', [], '', [], 'NULL', { score: 42, parts: [], outdoor: true });
  await set('person.jpg', null, null, null, [], null, {});
}, 180_000);
afterAll(() => server?.close());

/** The row the export wrote before Parquet went column-wise: metadataRow of each item, as a Parquet reader returns it. */
async function expectedRows(includeImages: boolean, selection: Parameters<typeof itemsQuery>[1] = null, version = versionId, fieldTypes = FIELD_TYPES) {
  const fields = Object.keys(fieldTypes).sort();
  const types = exportColumns(fieldTypes);
  const rows: Array<Record<string, unknown>> = [];
  await forEachItemPage(db(), itemsQuery(version, selection), 100, async (items) => {
    for (const item of items) {
      const row: ExportRow = metadataRow(item, includeImages, fields);
      const out: Record<string, unknown> = {};
      for (const [column, type] of Object.entries(types)) {
        const value = row[column] ?? null;
        // hyparquet reads a null list as undefined, whoever wrote it.
        if (value === null) out[column] = type === 'VARCHAR[]' ? undefined : null;
        else if (type === 'BIGINT') out[column] = BigInt(value as number);
        else if (type === 'TIMESTAMPTZ') out[column] = new Date(Date.parse(value as string));
        else if (type === 'JSON') out[column] = JSON.stringify(value);
        else out[column] = value;
      }
      rows.push(out);
    }
  });
  return byId(rows);
}

/** Parquet rows come in no particular order. */
const byId = <T extends Record<string, unknown>>(rows: T[]) => rows.sort((a, b) => String(a.media_id).localeCompare(String(b.media_id)));

describe('Parquet built column-wise (issue 23: no JavaScript object per row)', () => {
  it('holds exactly the rows, columns and types the per-row writer wrote, tricky text included', async () => {
    const entries = await exportArchive(server, owner, datasetId, 'file_name=p&export_format=parquet');
    const rows = byId(await parquetRows(entries.get('metadata.parquet')!.bytes));
    const expected = await expectedRows(false);
    expect(rows).toHaveLength(4);
    expect(rows.map((r) => r.image_filename).filter((name) => /^dog_[0-9a-f-]{36}\.jpg$/i.test(name))).toHaveLength(2);
    expect(rows).toEqual(expected);
    expect(rows.map((r) => Object.keys(r))).toEqual(expected.map((r) => Object.keys(r)));
    const dog = rows.find((r) => r.file_name === 'dog.jpg')!;
    expect(dog).toMatchObject({
      caption: 'line one\nline two, "quoted"',
      ocr_text: 'STOP\tsign\r\n',
      tags: ['a,b', 'q"t', ''],
      label: 'x,y',
      n_objects: 3,
      object_labels: ['zebra', 'Äpfel\\'],
      custom_weather: '',
      custom_score: 1.5e-7,
      custom_outdoor: false,
      custom_taken: new Date('2024-05-01T10:00:00.000Z'),
      custom_parts: ['leg', 'ta,il', '"'],
      "custom_it's": '\\N',
    });
    expect(JSON.parse(dog.objects)).toEqual([
      { object_id: 'o1', label: 'zebra', score: 0.8734, bbox: [1.5, 2, 10, 20.25], caption: 'a "striped" horse,\nright' },
      { object_id: 'o2', label: 'Äpfel\\', score: 1, bbox: [0, 0, 3, 4], caption: null },
      { object_id: 'o3', label: 'zebra', score: 0.5, bbox: [7, 8, 9, 10], caption: '' },
    ]);
    expect(rows.find((r) => r.file_name === 'horses.jpg')).toMatchObject({ caption: '', ocr_text: '', label: 'NULL', custom_weather: null, custom_score: 42, custom_parts: [] });
    expect(rows.find((r) => r.file_name === 'person.jpg')).toMatchObject({ caption: null, n_objects: 0, object_labels: [], objects: '[]', custom_outdoor: null, custom_parts: undefined });
  });

  it('with images: the archive paths in file_path and media_uri; a selective export: only the chosen rows', async () => {
    const entries = await exportArchive(server, owner, datasetId, 'file_name=p&export_format=parquet&include_images=true');
    expect([...entries.keys()].sort()).toEqual([
      `images/Dog_${ids.get('Dog.JPG')}.JPG`,
      `images/dog_${ids.get('dog.jpg')}.jpg`,
      'images/horses.jpg',
      'images/person.jpg',
      'metadata.parquet',
    ]);
    const rows = byId(await parquetRows(entries.get('metadata.parquet')!.bytes));
    expect(rows).toEqual(await expectedRows(true));
    const inArchive = `images/dog_${ids.get('dog.jpg')}.jpg`;
    expect(rows.find((r) => r.file_name === 'dog.jpg')).toMatchObject({ file_path: inArchive, media_uri: inArchive });

    const selection = [{ type: 'media' as const, payload: { media_ids: [ids.get('dog.jpg')!, ids.get('person.jpg')!] } }];
    const started = await server.api(owner.token, 'POST', `/api/v1/dataset/${datasetId}/export_entities_async?export_format=parquet`, { media_selection: selection });
    expect(started.status).toBe(200);
    const done = await (async () => {
      for (;;) {
        const res = await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/export_status?export_task_id=${started.body.id}`);
        if (res.body.status !== 'PENDING') return res.body;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    expect(done).toMatchObject({ status: 'COMPLETED', result_message: 'Exported 2 media item(s)', progress: 100 });
    const zip = await readZip(Buffer.from(await (await fetch(done.download_uri)).arrayBuffer()));
    const chosen = byId(await parquetRows(zip.get('metadata.parquet')!.bytes));
    expect(chosen).toEqual(await expectedRows(false, selection));
    expect(chosen.map((r) => r.file_name).sort()).toEqual(['dog.jpg', 'person.jpg']);
  });

  it('a head over a base: its own tags and fields, the rest inherited; names that clash only once made safe', async () => {
    const jpegs = await generatedJpegs(5);
    const names = ['cat:1.jpg', 'CAT#1.jpg', 'README', 'readme', 'plain.jpg'];
    const created = await createDataset(server, owner, 'columns-delta', [jpegs.map((file, i) => ({ ...file, name: names[i]! }))]);
    const listed = await server.api(owner.token, 'GET', `/api/v1/dataset/${created.datasetId}/media?limit=10`);
    const byName = new Map((listed.body.media as Array<{ file_name: string; media_id: string }>).map((m) => [m.file_name, m.media_id]));
    const csv = new FormData();
    csv.append('file', new Blob(['file_name,mood\nREADME,calm\nplain.jpg,"a, b"\n']), 'fields.csv');
    const imported = await server.api(owner.token, 'POST', `/api/v1/dataset/${created.datasetId}/custom_metadata`, csv);
    expect(imported.status).toBe(202);
    await waitForTask(server, owner, created.datasetId, imported.body.task_id, (t) => t.status === 'COMPLETED', 'fields imported', 30_000);
    const tagged = await server.api(owner.token, 'POST', `/api/v1/dataset/${created.datasetId}/media/tags`, { tags: ['kept'], media_ids: [byName.get('README')!] });
    expect(tagged.status).toBe(200);
    const labelled = await server.api(owner.token, 'PUT', `/api/v1/dataset/${created.datasetId}/media/label`, { label: 'cat', media_ids: [byName.get('cat:1.jpg')!] });
    expect(labelled.status).toBe(200);
    const head = (await db().selectFrom('datasets').select('head_version_id').where('id', '=', created.datasetId).executeTakeFirstOrThrow()).head_version_id!;
    expect(await db().selectFrom('annotation_bases').select('base_id').where('version_id', '=', head).executeTakeFirst()).toBeDefined();
    expect(await db().selectFrom('field_bases').select('base_id').where('version_id', '=', head).executeTakeFirst()).toBeDefined();
    const fieldTypes = (await db().selectFrom('versions').select('field_types').where('id', '=', head).executeTakeFirstOrThrow()).field_types as Record<string, FieldType>;

    const entries = await exportArchive(server, owner, created.datasetId, 'file_name=d&export_format=parquet&include_images=true');
    const rows = byId(await parquetRows(entries.get('metadata.parquet')!.bytes));
    expect(rows).toEqual(await expectedRows(true, null, head, fieldTypes));
    const named = new Map(rows.map((r) => [r.file_name, r.image_filename]));
    expect(named.get('cat:1.jpg')).toBe(`cat_1_${byName.get('cat:1.jpg')}.jpg`);
    expect(named.get('CAT#1.jpg')).toBe(`CAT_1_${byName.get('CAT#1.jpg')}.jpg`);
    expect(named.get('README')).toBe(`README_${byName.get('README')}`);
    expect(named.get('plain.jpg')).toBe('plain.jpg');
    expect(rows.find((r) => r.file_name === 'README')).toMatchObject({ tags: ['kept'], label: null, custom_mood: 'calm', file_path: `images/README_${byName.get('README')}` });
    expect(rows.find((r) => r.file_name === 'plain.jpg')).toMatchObject({ tags: [], custom_mood: 'a, b' });
    expect(rows.find((r) => r.file_name === 'cat:1.jpg')).toMatchObject({ tags: [], label: 'cat' });
    expect([...entries.keys()].filter((k) => k.startsWith('images/')).sort()).toEqual(rows.map((r) => r.file_path).sort());
  });
});
