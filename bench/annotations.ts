import { openAsBlob } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.js';
import { signClientToken } from '../src/modules/auth/auth.service.js';
import { type Loupe, startLoupe } from '../src/server.js';
import { type BenchReport, type Goal, fixed } from './lib/report.js';
import { seedIndexedDataset } from './lib/seed-media.js';
import { writeMetadataCsv } from './lib/metadata-csv.js';
import { intFromEnv } from './lib/env.js';

const GOAL_TAG_MS = 2_000;
const GOAL_IMPORT_ROWS_PER_S = 100_000;


/** Samples this process's RSS and V8 heap every 50 ms while `work` runs; returns its result and the peaks. */
async function withPeakRss<T>(work: () => Promise<T>): Promise<{ value: T; peak: number; peakHeap: number }> {
  let peak = process.memoryUsage().rss;
  let peakHeap = process.memoryUsage().heapUsed;
  const sample = () => {
    const m = process.memoryUsage();
    peak = Math.max(peak, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  };
  const timer = setInterval(sample, 50);
  try {
    const value = await work();
    sample();
    return { value, peak, peakHeap };
  } finally {
    clearInterval(timer);
  }
}

const MB = 1024 * 1024;

/** Tagging 100k media in one request, and a 1M-row custom metadata import (rows/s, peak RSS). */
export async function annotations(): Promise<BenchReport> {
  const mediaCount = intFromEnv('BENCH_ANNOTATION_MEDIA', 1_000_000);
  const tagCount = Math.min(intFromEnv('BENCH_TAG_MEDIA', 100_000), mediaCount);
  const importRows = intFromEnv('BENCH_IMPORT_ROWS', 1_000_000);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'loupe-bench-'));
  let loupe: Loupe | null = null;
  const rows: string[][] = [];
  const goals: Goal[] = [];
  try {
    loupe = await startLoupe(
      loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent', CUSTOM_METADATA_MAX_BYTES: String(4 * 1024 * MB) }, { role: 'all' }),
    );
    const { db } = loupe.container.database;
    const issued = await loupe.container.services.auth.createUser('bench-annotations@example.com');
    const token = await signClientToken(issued.api_key, issued.api_secret, 3600);
    const seedStart = performance.now();
    const datasetId = await seedIndexedDataset(loupe, issued.user_id, 'bench-annotations', mediaCount);
    const seedS = (performance.now() - seedStart) / 1000;
    const base = `${loupe.url}/api/v1/dataset/${datasetId}`;
    const send = async (method: string, route: string, body: unknown) => {
      const start = performance.now();
      const res = await fetch(`${base}${route}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body instanceof FormData ? {} : { 'content-type': 'application/json' }) },
        body: body instanceof FormData ? body : JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${route}: ${res.status} ${text}`);
      return { ms: performance.now() - start, body: JSON.parse(text) as Record<string, any> };
    };
    const { rows: picked } = await sql<{ media_id: string }>`select vm.media_id from version_media vm join datasets d on d.head_version_id = vm.version_id
      where d.id = ${datasetId}::uuid order by vm.ordinal limit ${tagCount}`.execute(db);
    const ids = picked.map((r) => r.media_id);
    const bodyMb = JSON.stringify({ tags: ['x'], media_ids: ids }).length / MB;

    const tagRuns: Array<[string, number, number]> = [];
    const tag = async (what: string, tagName: string) => {
      const r = await send('POST', '/media/tags', { tags: [tagName], media_ids: ids });
      tagRuns.push([what, r.ms, r.body.changed as number]);
    };
    await tag('first edit (no annotation yet: the 100k rows are the new version\'s whole set)', 'bench-a');
    await tag('second edit (inherits the first\'s rows, writes 100k of its own)', 'bench-b');
    const label = await send('PUT', '/media/label', { label: 'bench', media_ids: ids });
    tagRuns.push(['set a label on the same media', label.ms, label.body.changed as number]);

    const csv = path.join(dataDir, 'metadata.csv');
    const csvBytes = await writeMetadataCsv(csv, importRows);
    const rssBefore = process.memoryUsage().rss;
    const heapBefore = process.memoryUsage().heapUsed;
    const { value: imported, peak, peakHeap } = await withPeakRss(async () => {
      const form = new FormData();
      form.append('file', await openAsBlob(csv), 'metadata.csv');
      const start = performance.now();
      const started = await send('POST', '/custom_metadata', form);
      for (;;) {
        const { rows: found } = await sql<{ status: string; error_message: string | null; run_ms: number | null; status_message: string }>`
          select status, error_message, status_message, extract(epoch from (end_time - start_time)) * 1000 as run_ms from tasks
          where id = ${started.body.task_id}::uuid`.execute(db);
        const task = found[0]!;
        if (task.status === 'COMPLETED') return { requestMs: started.ms, totalMs: performance.now() - start, runMs: Number(task.run_ms), message: task.status_message };
        if (task.status === 'FAILED' || task.status === 'ABORTED') throw new Error(`import ${task.status}: ${task.error_message}`);
        await sleep(20);
      }
    });
    const rowsPerS = importRows / (imported.totalMs / 1000);
    const after = await send('POST', '/media/tags', { tags: ['bench-c'], media_ids: ids });
    tagRuns.push(['tag again after the import (1M annotated media, rows carrying 5 fields; the import\'s version is the base)', after.ms, after.body.changed as number]);

    for (const [what, ms, changed] of tagRuns) rows.push([what, String(changed), fixed(ms, 0)]);
    rows.push([`import ${importRows} CSV rows (${fixed(csvBytes / MB, 0)} MB): request (upload, store, check)`, '', fixed(imported.requestMs, 0)]);
    rows.push(['  task queued to its commit phase (file streamed, checked, staged)', '', fixed(imported.runMs, 0)]);
    rows.push(['  commit phase (match, write the new version, swap) and pickup', '', fixed(imported.totalMs - imported.requestMs - imported.runMs, 0)]);
    rows.push(['  request sent to COMPLETED', String(importRows), fixed(imported.totalMs, 0)]);

    const worstTag = Math.max(...tagRuns.map((r) => r[1]));
    goals.push({
      description: `tag ${tagCount} media in one request < ${GOAL_TAG_MS} ms (every edit above)`,
      actual: `${tagRuns.map((r) => fixed(r[1], 0)).join(', ')} ms; worst ${fixed(worstTag, 0)} ms`,
      pass: worstTag < GOAL_TAG_MS,
    });
    goals.push({ description: `custom metadata import >= ${GOAL_IMPORT_ROWS_PER_S} rows/s (request sent to COMPLETED)`, actual: `${fixed(rowsPerS, 0)} rows/s`, pass: rowsPerS >= GOAL_IMPORT_ROWS_PER_S });
    const growth = (peak - rssBefore) / MB;
    goals.push({ description: 'flat memory: peak RSS during the import within 256 MB of before it (the file is ' + `${fixed(csvBytes / MB, 0)} MB)`, actual: `+${fixed(growth, 0)} MB`, pass: growth < 256 });
    return {
      title: `Annotations: tag ${tagCount} media in one request; import a ${importRows}-row custom metadata CSV`,
      notes: [
        `One Loupe in this process (embedded PostgreSQL, role all), one READY dataset of ${mediaCount} synthetic media seeded into the database`,
        `(${fixed(seedS, 1)} s, untimed). Edits go through HTTP: POST media/tags with ${tagCount} media_ids (a ${fixed(bodyMb, 1)} MB JSON body), timed from`,
        'sent to answered; each is one transaction (guard, membership check, delta fork of the head, one INSERT ... SELECT of a narrow',
        'annotation row per changed media, the rest of the head\'s annotations inherited, head swap).',
        'The import: a CSV keyed by file_name with five typed fields (string, number, boolean, datetime, list), every row matching a media,',
        `uploaded as multipart; rows/s = rows / (request sent to task COMPLETED). RSS is this process's (server and bench; PostgreSQL is a`,
        `separate process): ${fixed(rssBefore / MB, 0)} MB before the import, ${fixed(peak / MB, 0)} MB peak during it (sampled every 50 ms);`,
        `V8 heap used ${fixed(heapBefore / MB, 0)} MB before, ${fixed(peakHeap / MB, 0)} MB peak. Machine load average at the end: ${os.loadavg().map((l) => l.toFixed(1)).join(', ')} (2 cores, shared).`,
        `Import task message: ${imported.message}`,
      ],
      columns: ['operation', 'media changed', 'ms'],
      rows,
      goals,
    };
  } finally {
    await loupe?.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
