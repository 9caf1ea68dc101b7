import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobPath } from '../../src/adapters/backup/blob-copy.js';
import type { Db } from '../../src/adapters/db/database.js';
import { type FakeOpenAi, startFakeOpenAi } from '../support/fake-openai.js';
import { createDataset, photo, waitForDataset } from '../support/ingest.js';
import { type TestServer, type TestUser, seededDataDir, startTestServer, tempDataDir, waitFor } from '../support/server.js';

/**
 * A whole instance through `loupe backup` (while the server runs and users are being created) and `loupe restore`
 * into a new DATA_DIR: every table's rows, every blob's bytes and the API's answers the same on the restored server.
 */
const run = promisify(execFile);
const loupe = (args: string[], dataDir: string) =>
  run(process.execPath, ['bin/loupe.js', ...args], { env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' } });

const sourceDir = seededDataDir();
const backupDir = path.join(tempDataDir(), 'backup');
// Folders of their own (tempDataDir): as root, PostgreSQL runs as `postgres`, which must be able to enter them.
const restoredDir = tempDataDir();
let source: TestServer;
let fake: FakeOpenAi;
let owner: TestUser;
let datasetId: string;
let copyId: string;

/** Every table's rows, each row as text, sorted: equal dumps mean equal tables. */
async function tableRows(db: Db): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  const tables = (await sql<{ name: string }>`select format('%I.%I', n.nspname, c.relname) as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind = 'r' and c.relname not in ('loupe_migrations', 'loupe_migrations_lock', 'nodes', 'worker_instances')`.execute(db)).rows;
  for (const { name } of tables) {
    out[name] = (await sql<{ row: string }>`select x::text as row from ${sql.raw(name)} x order by 1`.execute(db)).rows.map((r) => r.row);
  }
  return out;
}

/** Every blob file under a blobs folder, by hash, with its bytes' length and content. */
function blobFiles(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const root = path.join(dir, 'blobs');
  for (const a of fs.readdirSync(root)) {
    if (a === 'tmp') continue;
    for (const b of fs.readdirSync(path.join(root, a))) for (const hash of fs.readdirSync(path.join(root, a, b))) files.set(hash, fs.readFileSync(path.join(root, a, b, hash)));
  }
  return files;
}

/** Media links are signed for the server that answers (its address, a fresh expiry): compared by their path. */
function withoutSignedUrls(body: unknown): unknown {
  return JSON.parse(JSON.stringify(body), (_key, value: unknown) =>
    typeof value === 'string' && /^https?:\/\/[^/]+\/api\/v1\/.*[?&]signature=/.test(value) ? new URL(value).pathname : value,
  );
}

/**
 * A field set (a partition of field_sets the application makes, not a migration) for the dataset's head, as an import
 * of 50,000 rows or more writes one (version-annotations.ts writeSet): a restore must make the table again.
 */
async function makeFieldSet(server: TestServer, id: string, mediaIds: string[]): Promise<void> {
  const pool = server.loupe.container.database.pool;
  const { rows: [head] } = await pool.query<{ id: string }>('select head_version_id as id from datasets where id = $1', [id]);
  const table = `field_sets_${head!.id.replaceAll('-', '')}`;
  await pool.query(`create table ${table} (version_id, media_id, custom_fields) as
    select $1::uuid, m, jsonb_build_object('mood', 'calm') from unnest($2::uuid[]) m`, [head!.id, mediaIds]);
  await pool.query(`alter table ${table} alter version_id set not null, alter media_id set not null, alter custom_fields set not null,
    add primary key (media_id, version_id)`);
  await pool.query(`alter table field_sets attach partition ${table} for values in ('${head!.id}')`);
}

const API_ROUTES = () => [
  '/api/v1/datasets',
  `/api/v1/dataset/${datasetId}`,
  `/api/v1/dataset/${copyId}`,
  `/api/v1/dataset/${datasetId}/media?limit=100`,
  `/api/v1/dataset/${datasetId}/snapshot`,
  `/api/v1/dataset/${datasetId}/views`,
  `/api/v1/dataset/${datasetId}/tags`,
  `/api/v1/dataset/${datasetId}/labels`,
  `/api/v1/explore/${copyId}?threshold=0`,
  `/api/v1/enrichment/${copyId}/context`,
];

let sourceRows: Record<string, string[]>;
let sourceApi: unknown[];
let backupOutput: { stdout: string; stderr: string };
let usersDuringBackup: string[];

beforeAll(async () => {
  // The enrichment copy is captioned by a stand-in OpenAI endpoint: no vision model to load.
  fake = await startFakeOpenAi();
  const openai = { ENRICH_OPENAI_BASE_URL: fake.baseUrl, ENRICH_OPENAI_MODEL: 'fake-vision-1', ENRICH_OPENAI_API_KEY: 'sk-test' };
  source = await startTestServer({ dataDir: sourceDir, env: openai });
  owner = await source.createUser();
  ({ datasetId } = await createDataset(source, owner, 'backed up', [[photo('dog.jpg'), photo('kite.jpg'), photo('horses.jpg')]]));
  const api = (method: string, route: string, body?: unknown) => source.api(owner.token, method, `/api/v1/dataset/${datasetId}${route}`, body);
  expect((await api('POST', '/snapshot', { name: 'first' })).status).toBe(200);
  const media = (await api('GET', '/media?limit=100')).body.media as Array<{ media_id: string; file_name: string }>;
  const id = (name: string) => media.find((m) => m.file_name === name)!.media_id;
  expect((await api('POST', '/media/tags', { tags: ['pet'], media_ids: [id('dog.jpg')] })).status).toBe(200);
  expect((await api('PUT', '/media/label', { label: 'horse', media_ids: [id('horses.jpg')] })).status).toBe(200);
  const form = new FormData();
  form.append('name', 'Dogs');
  expect((await api('POST', '/views?file_name=dog&threshold=1', form)).status).toBe(200);
  expect((await api('POST', '/snapshot', { name: 'second' })).status).toBe(200);
  const enriched = await api('POST', '/enrich_dataset', { enrichment_models: { CAPTION_IMAGES: 'openai_compatible_fake-vision-1' } });
  expect(enriched.status).toBe(200);
  copyId = enriched.body.dataset_id;
  await waitForDataset(source, owner, copyId, ['READY']);
  await waitForDataset(source, owner, datasetId, ['READY']);
  // Settled: no task or job still writing (the recurring sweeps find nothing to do).
  await waitFor(async () => {
    const { rows } = await source.loupe.container.database.pool.query(`select count(*)::int as n from tasks where status in ('INITIALIZING', 'RUNNING')`);
    return rows[0].n === 0 ? true : undefined;
  }, 20_000, 'tasks ended');

  await makeFieldSet(source, datasetId, media.map((m) => m.media_id));

  // Users are created while the backup runs: the backup holds each whole (with its key) or not at all.
  let backingUp = true;
  usersDuringBackup = [];
  const writer = (async () => {
    while (backingUp) {
      usersDuringBackup.push((await source.createUser()).user_id);
      await sleep(25);
    }
  })();
  try {
    backupOutput = await loupe(['backup', backupDir, '--json'], sourceDir);
  } finally {
    backingUp = false;
    await writer;
  }
  sourceRows = await tableRows(source.loupe.container.database.db);
  sourceApi = await Promise.all(API_ROUTES().map(async (route) => withoutSignedUrls((await source.api(owner.token, 'GET', route)).body)));
  await source.close();
}, 120_000);

afterAll(async () => {
  await fake?.close();
  for (const dir of [sourceDir, path.dirname(backupDir), restoredDir]) fs.rmSync(dir, { recursive: true, force: true });
});

describe('loupe backup and restore', () => {
  it('backs up a running instance: its tables, waiting jobs and every referenced blob, described by a manifest', () => {
    const summary = JSON.parse(backupOutput.stdout);
    const manifest = JSON.parse(fs.readFileSync(path.join(backupDir, 'manifest.json'), 'utf8'));
    expect(summary).toMatchObject({ dir: backupDir, tables: manifest.tables.length, blobs: manifest.blobs.count, migration: manifest.migrations.at(-1) });
    expect(manifest).toMatchObject({ format: 'loupe-backup/1', secret_key: 'file', loupe_version: expect.any(String) });
    expect(manifest.tables.map((t: { table: string }) => t.table)).toEqual(expect.arrayContaining(['public.datasets', 'public.snapshots', 'public.saved_views', 'public.media']));
    // Blobs are the original photos, their thumbnails and previews, the index: more than the three originals.
    expect(manifest.blobs.count).toBeGreaterThan(3);
    expect(manifest.tables.filter((t: { partition?: unknown }) => t.partition)).toEqual([
      expect.objectContaining({ rows: 3, partition: { parent: 'public.field_sets', bound: expect.stringMatching(/^FOR VALUES IN \('[0-9a-f-]{36}'\)$/) } }),
    ]);
    expect(fs.existsSync(path.join(backupDir, 'secret.key'))).toBe(true);
  });

  it('restores into a new DATA_DIR, where a server answers as the old one did, with every row and blob the same', { timeout: 60_000 }, async () => {
    const restored = await loupe(['restore', backupDir, '--json'], restoredDir);
    const manifest = JSON.parse(fs.readFileSync(path.join(backupDir, 'manifest.json'), 'utf8'));
    // The waiting jobs (the recurring sweeps here) are queued again.
    expect(JSON.parse(restored.stdout)).toMatchObject({ data_dir: restoredDir, migration: manifest.migrations.at(-1), jobs: manifest.queue.rows, blobs: manifest.blobs.count });
    expect(manifest.queue.rows).toBeGreaterThan(0);
    const server = await startTestServer({ dataDir: restoredDir });
    try {
      const rows = await tableRows(server.loupe.container.database.db);
      // The users made during the backup: those the snapshot saw are there with their keys, the later ones are not.
      const restoredUsers = new Set(rows['public.users']!.map((row) => row.slice(1, 37)));
      const userOf = { 'public.users': (row: string) => row.slice(1, 37), 'public.api_keys': (row: string) => row.split(',')[1]! };
      for (const [table, user] of Object.entries(userOf)) expect(rows[table]).toEqual(sourceRows[table]!.filter((row) => restoredUsers.has(user(row))));
      const during = new Set(usersDuringBackup);
      const before = sourceRows['public.users']!.map(userOf['public.users']).filter((u) => !during.has(u));
      expect(before.every((u) => restoredUsers.has(u))).toBe(true);
      for (const table of Object.keys(sourceRows)) {
        if (table === 'public.users' || table === 'public.api_keys') continue;
        expect({ table, rows: rows[table] }).toEqual({ table, rows: sourceRows[table] });
      }
      expect(Object.keys(rows).sort()).toEqual(Object.keys(sourceRows).sort());

      const sourceBlobs = blobFiles(sourceDir);
      const restoredBlobs = blobFiles(restoredDir);
      expect([...restoredBlobs.keys()].sort()).toEqual([...sourceBlobs.keys()].sort());
      for (const [hash, bytes] of restoredBlobs) expect(bytes.equals(sourceBlobs.get(hash)!)).toBe(true);

      // The same signed token works (keys and the server key came back) and every answer is the same.
      const answers = await Promise.all(API_ROUTES().map(async (route) => withoutSignedUrls((await server.api(owner.token, 'GET', route)).body)));
      expect(answers).toEqual(sourceApi);
      const dog = ((await server.api(owner.token, 'GET', `/api/v1/dataset/${datasetId}/media?limit=100`)).body.media as any[]).find((m) => m.file_name === 'dog.jpg');
      const original = await fetch(dog.media_uri);
      expect(Buffer.from(await original.arrayBuffer()).equals(photo('dog.jpg').bytes)).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('refuses a DATA_DIR that is not empty, with exit code 4, and changes nothing there', async () => {
    const before = fs.readdirSync(restoredDir).sort();
    await expect(loupe(['restore', backupDir], restoredDir)).rejects.toMatchObject({
      code: 4,
      stderr: `DATA_DIR ${restoredDir} is not empty: restore only into an empty DATA_DIR (or a new path)\n`,
    });
    expect(fs.readdirSync(restoredDir).sort()).toEqual(before);
  });

  it('refuses a backup with a damaged blob, by its hash, and leaves the DATA_DIR empty to try again', async () => {
    const manifestBlobs = fs.readFileSync(path.join(backupDir, 'blobs.txt'), 'utf8').trim().split('\n');
    const victim = blobPath(path.join(backupDir, 'blobs'), manifestBlobs[0]!);
    const bytes = fs.readFileSync(victim);
    bytes.writeUInt8(bytes.readUInt8(bytes.length >> 1) ^ 0xff, bytes.length >> 1);
    fs.writeFileSync(victim, bytes);
    const target = tempDataDir();
    await expect(loupe(['restore', backupDir], target)).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`blob ${manifestBlobs[0]} in the backup is damaged: its bytes hash to `),
    });
    expect(fs.readdirSync(target)).toEqual([]);
    fs.rmSync(target, { recursive: true, force: true });
  });
});
