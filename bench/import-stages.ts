import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.js';
import { signClientToken } from '../src/modules/auth/auth.service.js';
import { type ImportConfig, stageFile } from '../src/jobs/custom-metadata-staging.js';
import type { TaskContext } from '../src/jobs/registry.js';
import { matchesTable } from '../src/modules/custom-metadata/custom-metadata.repo.js';
import { checkRows, planFile } from '../src/modules/custom-metadata/metadata-file.js';
import { VersionsRepo } from '../src/modules/versions/versions.repo.js';
import { type Loupe, startLoupe } from '../src/server.js';
import { writeMetadataCsv } from './lib/metadata-csv.js';
import { type BenchReport, fixed, median } from './lib/report.js';
import { seedIndexedDataset } from './lib/seed-media.js';
import { intFromEnv } from './lib/env.js';

const GOAL_IMPORT_ROWS_PER_S = 100_000;
const TAGGED = 100_000;
const MB = 1024 * 1024;

/**
 * The custom metadata import's stages, each alone and timed on its own (the annotations bench times the whole
 * import through HTTP): where the time of a 1M-row import goes, and what each stage costs at best on this machine.
 * The write is also timed two ways the import does not use, to show what a row write costs here: into an
 * unlogged table with the same key (no WAL), and into a new table indexed once filled (a bulk index build).
 * Nothing is kept: every database stage runs in a transaction rolled back.
 */
export async function importStages(): Promise<BenchReport> {
  const rowCount = intFromEnv('BENCH_IMPORT_ROWS', 1_000_000);
  const runs = intFromEnv('BENCH_STAGE_RUNS', 3);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'loupe-bench-'));
  let loupe: Loupe | null = null;
  try {
    // The API role runs no garbage sweep, which would drop the staging tables of these task-less imports.
    loupe = await startLoupe(loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' }, { role: 'api' }));
    const { db } = loupe.container.database;
    const { blobs } = loupe.container;
    const repo = loupe.container.repos.customMetadata;
    const versions = new VersionsRepo(db);
    const user = await loupe.container.services.auth.createUser('bench-import-stages@example.com');
    const datasetId = await seedIndexedDataset(loupe, user.user_id, 'bench-import-stages', rowCount);
    // As in the annotations bench, the import lands on a head an edit made (a delta over the seeded version).
    const token = await signClientToken(user.api_key, user.api_secret, 3600);
    const { rows: tagged } = await sql<{ media_id: string }>`select vm.media_id from version_media vm join datasets d on d.head_version_id = vm.version_id
      where d.id = ${datasetId}::uuid order by vm.ordinal limit ${TAGGED}`.execute(db);
    const edit = await fetch(`${loupe.url}/api/v1/dataset/${datasetId}/media/tags`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ tags: ['bench'], media_ids: tagged.map((r) => r.media_id) }),
    });
    if (edit.status !== 200) throw new Error(`tagging: ${edit.status} ${await edit.text()}`);
    const head = (await db.selectFrom('datasets').select('head_version_id').where('id', '=', datasetId).executeTakeFirstOrThrow()).head_version_id!;
    const csv = path.join(dataDir, 'metadata.csv');
    const csvBytes = await writeMetadataCsv(csv, rowCount);

    const times = new Map<string, number[]>();
    const timed = async <T>(stage: string, work: () => Promise<T>): Promise<T> => {
      const start = performance.now();
      const value = await work();
      times.set(stage, [...(times.get(stage) ?? []), performance.now() - start]);
      return value;
    };
    const STORE = 'store the uploaded file (hash, write)';
    const CHECK = 'read and check every row (this process alone: parse, type, JSON text)';
    const STAGE = 'stream into staging (read, check, binary COPY over 2 connections)';
    const MATCH = 'match keys to the head\'s media (parallel hash join into an unlogged table of the transaction)';
    const WRITE = 'fork, write the fields as a set of their own (CREATE TABLE AS in parallel, no WAL, key built once filled, attached)';
    const SHARED = '  the same rows into the shared field_rows instead (sorted INSERT ... SELECT: heap, key index, WAL)';

    for (let run = 0; run < runs; run++) {
      const stored = await timed(STORE, () => blobs.put(createReadStream(csv), { maxBytes: 4 * 1024 * MB }));
      const file = { blobHash: stored.hash, format: 'csv' as const, size: stored.size };
      const plan = await planFile(blobs, file, {});
      if (!plan.ok) throw new Error(plan.problem);
      let checked = 0;
      await timed(CHECK, () =>
        checkRows(blobs, file, plan, { stage: () => void checked++, reject: () => void checked++, batchDone: async () => {} }, () => {}),
      );
      if (checked !== rowCount) throw new Error(`checked ${checked} rows, not ${rowCount}`);

      const taskId = randomUUID();
      const config: ImportConfig = { blob_hash: file.blobHash, format: 'csv', size: file.size, key: plan.key, types: plan.types };
      // stageFile reads only these of its task's context.
      const ctx = { taskId, signal: new AbortController().signal, progress: async () => {} } as unknown as TaskContext;
      await repo.prepare(taskId);
      try {
        const { counts } = await timed(STAGE, () => stageFile({ blobs, customMetadata: repo }, ctx, config));
        if (counts.rows - counts.rejected !== rowCount) throw new Error(`staged ${counts.rows - counts.rejected} rows, not ${rowCount}`);
        await db.transaction().execute(async (trx) => {
          const matches = await timed(MATCH, () => repo.match(trx, head, taskId, plan.key));
          if (matches.unmatched !== 0) throw new Error(`${matches.unmatched} rows matched nothing`);
          const attempt = async (stage: string, work: () => Promise<unknown>) => {
            await sql`savepoint bench_write`.execute(trx);
            await timed(stage, work);
            await sql`rollback to savepoint bench_write`.execute(trx);
          };
          await attempt(WRITE, async () => {
            const version = await versions.fork(trx, datasetId, null, 'delta', 'written by the caller');
            await repo.applyFields(trx, head, version, taskId, matches.pairs);
          });
          await attempt(SHARED, async () => {
            await sql`insert into field_rows (version_id, media_id, custom_fields)
              select ${randomUUID()}::uuid, media_id, fields from ${matchesTable(taskId)} where media_id is not null order by media_id`.execute(trx);
          });
          throw new RolledBack();
        }).catch((err: unknown) => {
          if (!(err instanceof RolledBack)) throw err;
        });
      } finally {
        await repo.discard(taskId);
        await loupe.container.repos.blobGc.queue([file.blobHash]);
      }
    }

    const best = (stage: string) => Math.min(...times.get(stage)!);
    const rows = [...times].map(([stage, ms]) => [stage, fixed(Math.min(...ms), 0), fixed(median(ms), 0)]);
    const floor = best(STORE) + best(STAGE) + best(MATCH) + best(WRITE);
    rows.push(['sum of the best times of the stages the import runs (store, stream, match, write)', fixed(floor, 0), '']);
    const budget = (1000 * rowCount) / GOAL_IMPORT_ROWS_PER_S;
    return {
      title: `Import stages: a ${rowCount}-row custom metadata CSV, each stage alone`,
      notes: [
        `One Loupe in this process (embedded PostgreSQL, role api), one dataset of ${rowCount} synthetic media whose head is an edit's`,
        `(${Math.min(TAGGED, rowCount)} media tagged, as in the annotations bench), a ${fixed(csvBytes / MB, 0)} MB CSV keyed by file_name with five typed`,
        `fields, every row matching a media. Each stage runs ${runs} times on the same data, one after the other as the import`,
        'runs them, with no request, queue or task around them (the annotations bench times the whole import through HTTP).',
        'The indented row is not what the import does: it prices the write the import made before field sets (migration 0025).',
        `At ${GOAL_IMPORT_ROWS_PER_S} rows/s the whole import of ${rowCount} rows has ${fixed(budget, 0)} ms, the upload and the queue included.`,
      ],
      columns: ['stage', 'best ms', 'median ms'],
      rows,
      goals: [],
    };
  } finally {
    await loupe?.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

class RolledBack extends Error {}
