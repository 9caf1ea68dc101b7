import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportArchive, parquetRows } from '../support/exports.js';
import { holdingLock } from '../support/locks.js';
import { type TestServer, type TestUser, startTestServer, waitFor } from '../support/server.js';
import { createDataset, photo, waitForDataset } from '../support/ingest.js';
import { hasStatus, waitForTask } from '../support/tasks.js';
import { sweepPassed } from '../support/sweeps.js';

let server: TestServer;
let owner: TestUser;
let viewer: TestUser;
/** A dataset and its media ids by file name. */
interface Fields {
  id: string;
  ids: Map<string, string>;
}
/** The common dataset: four photos with the fields of CSV below; the tests that use it only read it. */
let common: Fields;
const MAX_BYTES = 300_000;

const url = (p: string, d = common) => `/api/v1/dataset/${d.id}${p}`;
const fileForm = (name: string, content: string | Buffer, field = 'file') => {
  const body = new FormData();
  body.append(field, new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), name);
  return body;
};
const upload = (name: string, content: string | Buffer, user = owner, d = common) => server.api(user.token, 'POST', url('/custom_metadata', d), fileForm(name, content));
const schema = async (d = common) => (await server.api(owner.token, 'GET', url('/custom_metadata/schema', d))).body.fields;
const report = async (taskId: string, d = common) => (await server.api(owner.token, 'GET', url(`/custom_metadata/imports/${taskId}`, d))).body;
const imported = async (name: string, content: string | Buffer, d = common) => {
  const res = await upload(name, content, owner, d);
  expect(res.status, res.text).toBe(202);
  await waitForTask(server, owner, d.id, res.body.task_id, (t) => ['COMPLETED', 'FAILED'].includes(t.status), 'import done', 30_000);
  return report(res.body.task_id, d);
};
const names = async (filters: unknown[]) => {
  const res = await server.api(owner.token, 'GET', `/api/v1/explore/${common.id}?threshold=0&previews_limit=100&vql=${encodeURIComponent(JSON.stringify(filters))}`);
  expect(res.status, res.text).toBe(200);
  return res.body.clusters.flatMap((c: any) => c.previews.map((p: any) => p.file_name)).sort();
};
const custom = (field: string, op: string, value: unknown) => [{ custom: { field, op, value } }];
const taskCount = async () => (await server.api(owner.token, 'GET', `/api/v1/tasks?dataset_id=${common.id}&task_type=CUSTOM_METADATA`)).body.total;
const fieldsOf = async (fileName: string, d = common) => (await server.api(owner.token, 'GET', url(`/media/${d.ids.get(fileName)}`, d))).body.custom_fields;

const CSV = [
  'file_name,weather,score,outdoor,taken,parts',
  'dog.jpg,sunny,3.5,true,2024-05-01T10:00:00Z,"[""leg"",""tail""]"',
  'horses.jpg,rain,7,false,2024-06-01,[]',
  'person.jpg,,1,,,',
  'missing.jpg,fog,2,true,2024-01-01,[]',
  'kite.jpg,windy,oops',
].join('\n');

const FOUR = ['dog.jpg', 'horses.jpg', 'person.jpg', 'kite.jpg'];

/** A dataset of `files` (in test/fixtures/photos) shared with the viewer like the common one, for a test that changes one. */
async function fieldsDataset(files: string[]): Promise<Fields> {
  const { datasetId: id } = await createDataset(server, owner, 'fields', [files.map(photo)]);
  await server.api(owner.token, 'PUT', `/api/v1/manage/${id}/invite`, { grant_to_user_email: viewer.email, role: 'viewer' });
  const media = (await server.api(owner.token, 'GET', `/api/v1/dataset/${id}/media?limit=100`)).body.media;
  return { id, ids: new Map(media.map((m: any) => [m.file_name, m.media_id])) };
}

/** A dataset of `files` with CSV imported (the fields the common one has), for a test that changes fields it starts from. */
async function withCsvFields(files: string[]): Promise<Fields> {
  const d = await fieldsDataset(files);
  expect((await imported('meta.csv', CSV, d)).status).toBe('COMPLETED');
  return d;
}

beforeAll(async () => {
  server = await startTestServer({ env: { CUSTOM_METADATA_MAX_BYTES: String(MAX_BYTES) } });
  [owner, viewer] = await Promise.all([server.createUser(), server.createUser()]);
  common = await withCsvFields(FOUR);
}, 180_000);
afterAll(() => server?.close());

describe('importing a CSV keyed by file_name', () => {
  it('types the columns, applies the matched rows and reports matched, unmatched and rejected rows', async () => {
    const d = await fieldsDataset(FOUR);
    const result = await imported('meta.csv', CSV, d);
    expect(result).toMatchObject({ status: 'COMPLETED', key: 'file_name', file_name: 'meta.csv' });
    expect(result.report).toMatchObject({ rows: 5, matched: 3, unmatched: 1, rejected: 1, unmatched_keys: ['missing.jpg'] });
    expect(result.report.rejections).toEqual([{ line: 6, reason: expect.stringContaining('') }]);
    expect(result.status_message).toBe('Imported 5 field(s) from 5 row(s): 3 matched, 1 unmatched, 1 rejected');
    expect(await schema(d)).toEqual([
      { name: 'outdoor', type: 'boolean' },
      { name: 'parts', type: 'string_list' },
      { name: 'score', type: 'number' },
      { name: 'taken', type: 'datetime' },
      { name: 'weather', type: 'string' },
    ]);
    expect(await fieldsOf('dog.jpg', d)).toEqual({ weather: 'sunny', score: 3.5, outdoor: true, taken: '2024-05-01T10:00:00.000Z', parts: ['leg', 'tail'] });
    expect(await fieldsOf('person.jpg', d)).toEqual({ score: 1 });
  });

  it('Explore filters on fields: equality, ranges, contains, exists', async () => {
    expect(await names(custom('weather', 'eq', 'sunny'))).toEqual(['dog.jpg']);
    expect(await names(custom('score', 'gte', 3.5))).toEqual(['dog.jpg', 'horses.jpg']);
    expect(await names(custom('score', 'between', [0, 5]))).toEqual(['dog.jpg', 'person.jpg']);
    expect(await names(custom('outdoor', 'eq', false))).toEqual(['horses.jpg']);
    expect(await names(custom('taken', 'lt', '2024-05-15'))).toEqual(['dog.jpg']);
    expect(await names(custom('parts', 'contains', 'tail'))).toEqual(['dog.jpg']);
    expect(await names(custom('weather', 'contains', 'RAI'))).toEqual(['horses.jpg']);
    expect(await names(custom('weather', 'exists', false))).toEqual(['kite.jpg', 'person.jpg']);
    expect(await names(custom('weather', 'ne', 'sunny'))).toEqual(['horses.jpg']);
  });

  it('Explore answers 422 naming the field for an unknown field or a value of another type than the field\'s', async () => {
    const explore = async (filters: unknown[]) => {
      const res = await server.api(owner.token, 'GET', `/api/v1/explore/${common.id}?threshold=0&vql=${encodeURIComponent(JSON.stringify(filters))}`);
      return { status: res.status, body: res.body };
    };
    expect(await explore(custom('wether', 'eq', 'sunny'))).toEqual({
      status: 422,
      body: { detail: "Unknown custom field 'wether': this dataset's fields are outdoor, parts, score, taken, weather" },
    });
    expect(await explore(custom('score', 'contains', '3'))).toEqual({
      status: 422,
      body: { detail: 'Custom field \'score\' is a number field: it takes eq, ne, gt, gte, lt, lte or between with numbers (or exists), not contains with "3"' },
    });
    expect(await explore(custom('outdoor', 'eq', 'yes'))).toEqual({
      status: 422,
      body: { detail: 'Custom field \'outdoor\' is a boolean field: it takes eq or ne with true or false (or exists), not eq with "yes"' },
    });
    expect(await explore(custom('taken', 'gt', 3))).toMatchObject({ status: 422, body: { detail: expect.stringContaining("Custom field 'taken' is a datetime field") } });
    expect(await explore(custom('wether', 'exists', false))).toMatchObject({ status: 422, body: { detail: expect.stringContaining("Unknown custom field 'wether'") } });
  });

  it('a saved view filters on a field and counts its matches', async () => {
    const res = await server.api(owner.token, 'POST', `/api/v1/dataset/${common.id}/views?vql=${encodeURIComponent(JSON.stringify(custom('score', 'gt', 2)))}`, { name: 'High' });
    expect(res).toMatchObject({ status: 200, body: { total_results: 2 } });
  });
});

describe('re-importing', () => {
  it('updates fields by media_id from JSON lines, keeping the others (a media named twice takes the last row); a broken line is rejected with its reason', async () => {
    const d = await withCsvFields(['dog.jpg', 'kite.jpg']);
    const lines = [
      JSON.stringify({ media_id: d.ids.get('dog.jpg'), score: 8, outdoor: false }),
      JSON.stringify({ media_id: d.ids.get('dog.jpg'), score: 9, weather: null }),
      '{not json',
      JSON.stringify({ media_id: d.ids.get('kite.jpg'), outdoor: true }),
    ];
    const result = await imported('more.jsonl', lines.join('\n'), d);
    expect(result.report).toMatchObject({ rows: 4, matched: 3, unmatched: 0, rejected: 1, rejections: [{ line: 3, reason: 'the line is not valid JSON' }] });
    expect(await fieldsOf('dog.jpg', d)).toMatchObject({ weather: 'sunny', score: 9, outdoor: true });
    expect(await fieldsOf('kite.jpg', d)).toEqual({ outdoor: true });
  });

  it('rejects rows whose values do not fit the types fixed by the first 1000 rows', async () => {
    const d = await fieldsDataset(['horses.jpg', 'person.jpg']);
    const filler = Array.from({ length: 1000 }, (_, i) => JSON.stringify({ file_name: `none-${i}.jpg`, rating: i }));
    const result = await imported('late.jsonl', [...filler, JSON.stringify({ file_name: 'horses.jpg', rating: 'high' }), JSON.stringify({ file_name: 'person.jpg', rating: 4 })].join('\n'), d);
    expect(result.report).toMatchObject({ rows: 1002, matched: 1, unmatched: 1000, rejected: 1, rejections: [{ line: 1001, reason: `field 'rating': "high" is not a number` }] });
    expect((await fieldsOf('person.jpg', d)).rating).toBe(4);
  });

  it('reads Parquet with typed columns', async () => {
    const d = await fieldsDataset(['dog.jpg', 'kite.jpg']);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-parquet-'));
    const file = path.join(dir, 'm.parquet');
    const duck = await DuckDBInstance.create(':memory:');
    const conn = await duck.connect();
    await conn.run(`copy (select * from (values ('dog.jpg', 42::bigint, ['a', 'b'], timestamptz '2023-03-03 03:03:03+00'), ('kite.jpg', 7::bigint, [], null))
      t(file_name, count, labels_seen, seen_at)) to '${file}' (format parquet)`);
    conn.closeSync();
    duck.closeSync();
    const result = await imported('m.parquet', fs.readFileSync(file), d);
    fs.rmSync(dir, { recursive: true, force: true });
    expect(result.report).toMatchObject({ rows: 2, matched: 2, rejected: 0 });
    expect(result.fields).toEqual([
      { name: 'count', type: 'number' },
      { name: 'labels_seen', type: 'string_list' },
      { name: 'seen_at', type: 'datetime' },
    ]);
    expect(await fieldsOf('dog.jpg', d)).toMatchObject({ count: 42, labels_seen: ['a', 'b'], seen_at: '2023-03-03T03:03:03.000Z' });
  });
});

describe('bad files get 400 and change nothing', () => {
  it('no key column, a type conflict, a bad column name, an empty or oversized file, a wrong field; viewers 403', async () => {
    const tasks = await taskCount();
    const fields = await schema();
    const cases: Array<[string, string | Buffer, string]> = [
      ['a.csv', 'name,score\ndog.jpg,1', 'no key column: name one column media_id or file_name (found: name, score)'],
      ['b.jsonl', `${JSON.stringify({ file_name: 'dog.jpg', score: 'high' })}`, "field 'score' is number in this dataset but string in the file"],
      ['c.jsonl', [JSON.stringify({ file_name: 'dog.jpg', x: 1 }), JSON.stringify({ file_name: 'kite.jpg', x: 'one' })].join('\n'), "type conflict: column 'x' holds both number and string values"],
      ['d.csv', 'file_name,bad column\ndog.jpg,1', "column name 'bad column' is not a valid field name"],
      ['e.csv', '', 'the file is empty'],
      ['f.csv', `file_name,pad\n${'dog.jpg,xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n'.repeat(10_000)}`, `larger than the limit of ${MAX_BYTES} bytes`],
    ];
    for (const [name, content, detail] of cases) {
      const res = await upload(name, content);
      expect(res.status, name).toBe(400);
      expect(res.body.detail, name).toContain('Metadata file refused, nothing changed');
      expect(res.body.detail, name).toContain(detail);
    }
    expect(await server.api(owner.token, 'POST', url('/custom_metadata'), fileForm('x.csv', 'file_name,a\ndog.jpg,1', 'files'))).toMatchObject({ status: 400, body: { detail: expect.stringContaining("form field 'file'") } });
    expect((await upload('x.csv', 'file_name,a\ndog.jpg,1', viewer)).status).toBe(403);
    expect(await taskCount()).toBe(tasks);
    expect(await schema()).toEqual(fields);
  });
});

describe('while an import runs, and across snapshots', () => {
  it('blocks snapshot creation and another import (409) but not edits, which survive its commit', async () => {
    const d = await fieldsDataset(['dog.jpg']);
    let taskId!: string;
    // Each import makes its staging table like this one: it waits at its start.
    await holdingLock(server, 'lock table import_staging.template in access exclusive mode', async () => {
      const res = await upload('slow.csv', 'file_name,mood\ndog.jpg,happy', owner, d);
      expect(res.status).toBe(202);
      taskId = res.body.task_id;
      await waitForTask(server, owner, d.id, taskId, hasStatus('RUNNING'), 'import running');
      expect(await server.api(owner.token, 'POST', url('/snapshot', d), { name: 'during' })).toMatchObject({
        status: 409,
        body: { detail: "Operation 'create_snapshot' is blocked while CUSTOM_METADATA task is running" },
      });
      expect(await upload('again.csv', 'file_name,mood\ndog.jpg,sad', owner, d)).toMatchObject({ status: 409, body: { detail: "Operation 'import_custom_metadata' is blocked while CUSTOM_METADATA task is running" } });
      expect((await server.api(owner.token, 'POST', url('/media/tags', d), { tags: ['during-import'], media_ids: [d.ids.get('dog.jpg')] })).status).toBe(200);
    });
    await waitForTask(server, owner, d.id, taskId, hasStatus('COMPLETED'), 'import done', 30_000);
    expect((await fieldsOf('dog.jpg', d)).mood).toBe('happy');
    expect((await server.api(owner.token, 'GET', url('/tags', d))).body.tags).toContainEqual({ tag: 'during-import', count: 1 });
  });

  it('a snapshot keeps the fields and their list; a restore brings both back', async () => {
    const d = await withCsvFields(['dog.jpg']);
    expect((await server.api(owner.token, 'POST', url('/snapshot', d), { name: 'with fields' })).status).toBe(200);
    const fieldsBefore = await schema(d);
    const dogBefore = await fieldsOf('dog.jpg', d);
    await imported('new.csv', 'file_name,extra,score\ndog.jpg,yes,100', d);
    expect((await schema(d)).map((f: any) => f.name)).toContain('extra');
    expect((await fieldsOf('dog.jpg', d)).score).toBe(100);
    const snapshot = (await server.api(owner.token, 'GET', url('/snapshot', d))).body.find((s: any) => s.snapshot_name === 'with fields');
    expect((await server.api(owner.token, 'POST', url(`/snapshot/${snapshot.snapshot_id}/restore`, d))).status).toBe(202);
    await waitFor(async () => ((await schema(d)).length === fieldsBefore.length ? true : undefined), 30_000, 'restored');
    await waitForDataset(server, owner, d.id, ['READY']);
    expect(await schema(d)).toEqual(fieldsBefore);
    expect(await fieldsOf('dog.jpg', d)).toEqual(dogBefore);
  });
});

describe('exports carry tags, labels and fields as columns', () => {
  it('typed in Parquet', async () => {
    // dog.jpg with a field of each type and a tag, kite.jpg with one field and neither tag nor label.
    const d = await fieldsDataset(['dog.jpg', 'kite.jpg']);
    const fields = ['file_name,weather,score,outdoor,taken,parts,mood', 'dog.jpg,sunny,9,true,2024-05-01T10:00:00Z,"[""leg"",""tail""]",happy', 'kite.jpg,,,true,,,'];
    expect((await imported('fields.csv', fields.join('\n'), d)).report).toMatchObject({ matched: 2, rejected: 0 });
    expect((await server.api(owner.token, 'POST', url('/media/tags', d), { tags: ['during-import'], media_ids: [d.ids.get('dog.jpg')] })).status).toBe(200);
    await server.api(owner.token, 'PUT', url('/media/label', d), { label: 'dog', media_ids: [d.ids.get('dog.jpg')] });
    const zip = await exportArchive(server, owner, d.id, 'file_name=cm&export_format=parquet');
    const rows = await parquetRows(zip.get('metadata.parquet')!.bytes);
    const dog = rows.find((r) => r.file_name === 'dog.jpg')!;
    expect(dog).toMatchObject({ label: 'dog', tags: ['during-import'], custom_weather: 'sunny', custom_score: 9, custom_outdoor: true, custom_parts: ['leg', 'tail'], custom_mood: 'happy' });
    expect(dog.custom_taken).toBeInstanceOf(Date);
    expect(rows.find((r) => r.file_name === 'kite.jpg')).toMatchObject({ custom_weather: null, custom_outdoor: true, label: null, tags: [] });
  });
});

describe('CSV as editors and spreadsheets write it', () => {
  it('reads a BOM, CRLF, quoted cells over several lines and non-ASCII text; rejects a bad row by the line it starts on', async () => {
    const csv = '\uFEFFfile_name,note\r\nperson.jpg,"naïve ""quoted""\r\nsecond line \\ and\ttab"\r\nhorses.jpg,a,b\r\n\r\n"horses.jpg",日本\r\n';
    const d = await fieldsDataset(['person.jpg', 'horses.jpg']);
    const result = await imported('excel.csv', csv, d);
    expect(result.report).toMatchObject({ rows: 3, matched: 2, rejected: 1, rejections: [{ line: 4, reason: 'Invalid Record Length: columns length is 2, got 3 on line 4' }] });
    expect((await fieldsOf('person.jpg', d)).note).toBe('naïve "quoted"\r\nsecond line \\ and\ttab');
    expect((await fieldsOf('horses.jpg', d)).note).toBe('日本');
  });
});

describe('a failed import', () => {
  it('an import that fails after writing its rows leaves none behind, nor any change', async () => {
    const d = await withCsvFields(['dog.jpg']);
    const { db } = server.loupe.container.database;
    const before = await fieldsOf('dog.jpg', d);
    const strays = async () =>
      Number((await sql<{ n: string }>`select count(*) as n from field_rows f where not exists (select 1 from versions v where v.id = f.version_id)`.execute(db)).rows[0]!.n);
    // The commit fails when it records the field types on the import's version, after writing its field rows.
    await sql`create function refuse_import_version() returns trigger language plpgsql as $$
      begin
        if new.field_types is distinct from old.field_types and exists (select 1 from tasks t where t.id = new.task_id and t.task_type = 'CUSTOM_METADATA')
        then raise exception 'import version refused by the test'; end if;
        return new;
      end $$;
      create trigger refuse_import_version before update on versions for each row execute function refuse_import_version()`.execute(db);
    let taskId!: string;
    try {
      const res = await upload('refused.csv', 'file_name,probe\ndog.jpg,hail', owner, d);
      expect(res.status).toBe(202);
      taskId = res.body.task_id;
      const task = await waitForTask(server, owner, d.id, taskId, hasStatus('FAILED'), 'import failed', 30_000);
      expect(task.error_message).toContain('import version refused by the test');
    } finally {
      await sql`drop trigger refuse_import_version on versions; drop function refuse_import_version()`.execute(db);
    }
    expect(await fieldsOf('dog.jpg', d)).toEqual(before);
    expect(await strays()).toBe(0);
    expect(await db.selectFrom('versions').select('id').where('task_id', '=', taskId).execute()).toEqual([]);
    expect((await imported('after.csv', 'file_name,probe\ndog.jpg,hail', d)).report.matched).toBe(1);
    expect((await fieldsOf('dog.jpg', d)).probe).toBe('hail');
  });
});

describe('staged rows', () => {
  it('stay while their import runs, go once it ends, and a staging table an ended task left behind is swept', async () => {
    const d = await fieldsDataset(['dog.jpg', 'kite.jpg']);
    const { db } = server.loupe.container.database;
    const table = (taskId: string) => sql.raw(`import_staging."${taskId}"`);
    // How many rows the task's staging table holds; null once it is gone.
    const staged = (taskId: string) =>
      sql<{ n: string }>`select count(*) as n from ${table(taskId)}`
        .execute(db)
        .then(({ rows }) => Number(rows[0]!.n))
        .catch((err: { code?: string }) => (err.code === '42P01' ? null : Promise.reject(err)));
    let taskId!: string;
    // The commit waits to write its field rows: the import has staged its rows and stays RUNNING while sweeps pass.
    await holdingLock(server, 'lock table field_rows in exclusive mode', async () => {
      const res = await upload('held.csv', 'file_name,held\ndog.jpg,1\nkite.jpg,2', owner, d);
      expect(res.status).toBe(202);
      taskId = res.body.task_id;
      await waitFor(async () => ((await staged(taskId)) === 2 ? true : undefined), 30_000, 'rows staged');
      await sweepPassed(server);
      expect(await staged(taskId)).toBe(2);
    });
    await waitForTask(server, owner, d.id, taskId, hasStatus('COMPLETED'), 'import done', 30_000);
    await waitFor(async () => ((await staged(taskId)) === null ? true : undefined), 10_000, 'staging table dropped');
    // Nor is the table of its matches (made and dropped in the commit's transaction) left behind.
    const { rows: left } = await sql<{ relname: string }>`select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'import_staging' and c.relkind = 'r'`.execute(db);
    expect(left.map((r) => r.relname)).toEqual(['template']);
    expect((await fieldsOf('kite.jpg', d)).held).toBe(2);
    // What a process that stopped between the commit and the drop leaves behind.
    await sql`create unlogged table ${table(taskId)} (like import_staging.template)`.execute(db);
    await sql`insert into ${table(taskId)} (line, key, fields) values (2, 'dog.jpg', '{}')`.execute(db);
    await waitFor(async () => ((await staged(taskId)) === null ? true : undefined), 10_000, 'left table swept');
  });
});
