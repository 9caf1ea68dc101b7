import { CreateBucketCommand } from '@aws-sdk/client-s3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startS3rver } from '../../sources/s3rver-server.js';
import { startFakeOpenAi } from '../../support/fake-openai.js';
import { form, generatedJpegs, photo } from '../../support/ingest.js';
import { waitFor } from '../../support/server.js';
import { type Print, type Task, checkOriginals, firstDifference, isFinal, print, samePrint, tasksOf } from './observe.js';
import { type Context, OPERATIONS, type Operation, type Subject, prepareFiles, waitStatus } from './operations.js';
import { type KillTarget, ChaosServer } from './server.js';
import { PHOTO_EDITS } from '../../support/photo-edits.js';
import { Rng } from '../../../src/core/random.js';

export type Outcome = 'before' | 'after' | 'failed' | 'broken';

export interface KillResult {
  operation: string;
  target: KillTarget;
  round: number;
  /** Milliseconds into the operation (its measured duration is `durationMs`) when the kill came. */
  atMs: number;
  durationMs: number;
  /** Whether the kill came while the operation ran (its request in flight, its task or export job not ended). */
  hit: boolean;
  outcome: Outcome;
  /** Why a round is broken, or the task's end for the others. */
  detail: string;
}

/** One kill: its target and the operations it cuts (each started so that the kill falls at its own random point). */
export interface Kill {
  target: KillTarget;
  operations: string[];
}

export interface CampaignOptions {
  seed: number;
  kills: Kill[];
  log?: (line: string) => void;
  /** The longest wait for tasks to end after a restart; a task still running then is a broken invariant. */
  settleMs?: number;
}

export interface CampaignResult {
  seed: number;
  results: KillResult[];
  /** Each operation's duration in the calibration pass (no kill), ms. */
  durations: Record<string, number>;
}

/** The kills of `rounds` rounds: every operation once per target per round, one kill per target cutting them all. */
export function everyOperationEveryTarget(rounds: number, operations = OPERATIONS.map((o) => o.name)): Kill[] {
  return Array.from({ length: rounds }, () => (['server', 'postgres'] as const).map((target) => ({ target, operations }))).flat();
}

interface Prepared {
  op: Operation;
  subject: Subject;
  before: Print;
  taskIdsBefore: Set<string>;
}

const BASE_PHOTOS = ['dog.jpg', 'horses.jpg', 'kite.jpg'];

/**
 * Runs the real server as a child, calibrates every operation once without a kill (its duration, its "after"), then
 * for each kill: sets the operations up, starts each so that the kill falls at a random point within its measured
 * duration, SIGKILLs the target, restarts, waits for every task to end, and checks the invariants.
 */
export async function runCampaign(options: CampaignOptions): Promise<CampaignResult> {
  const log = options.log ?? (() => {});
  const rng = new Rng(options.seed);
  const random = () => rng.uniform();
  const settleMs = options.settleMs ?? 180_000;
  const names = [...new Set(options.kills.flatMap((k) => k.operations))];
  const operations = names.map((n) => {
    const op = OPERATIONS.find((o) => o.name === n);
    if (!op) throw new Error(`unknown operation ${n}`);
    return op;
  });

  // The data directory is the temp folder itself: as root, PostgreSQL runs as "postgres", which must be able to enter it.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-chaos-'));
  const tmp = path.join(dataDir, 'chaos-work');
  fs.mkdirSync(tmp);
  const { seedCluster } = await import('../../support/cluster.js');
  seedCluster(dataDir);
  const s3 = await startS3rver();
  const admin = s3.admin();
  const fake = await startFakeOpenAi();
  // Every operation of a kill round runs its task at once (the default, 2, would queue most of them behind the others).
  const server = new ChaosServer(dataDir, {
    WORKER_CONCURRENCY: '16',
    ...(s3.env as Record<string, string>),
    ENRICH_OPENAI_BASE_URL: fake.baseUrl,
    ENRICH_OPENAI_MODEL: 'fake-vision-1',
    ENRICH_OPENAI_API_KEY: 'sk-chaos',
  });
  const results: KillResult[] = [];
  let failed = false;
  const durations: Record<string, number> = {};
  try {
    await admin.send(new CreateBucketCommand({ Bucket: 'media' }));
    const dog = photo('dog.jpg');
    const photos = [...BASE_PHOTOS.map(photo), { name: 'dog-crop.jpg', bytes: await PHOTO_EDITS.crop84!(dog.bytes) }, { name: 'dog-small.jpg', bytes: await PHOTO_EDITS['half-q30']!(dog.bytes) }];
    const { sent, batches } = await prepareFiles(tmp, admin, photos, await generatedJpegs(9, { width: 160, height: 120 }));

    let t = Date.now();
    await server.start();
    log(`server up in ${Date.now() - t} ms (${server.url}); data in ${dataDir}`);
    t = Date.now();
    const baseId = await createBase(server, photos);
    const snapshotId = (await server.api('GET', `/api/v1/dataset/${baseId}/snapshot`)).body[0].snapshot_id as string;
    log(`base dataset READY in ${Date.now() - t} ms`);
    const ctx: Context = { server, sent, base: { id: baseId, snapshotId, files: photos }, batches, captioner: 'openai_compatible_fake-vision-1', claimed: new Set(), tmp };

    // Calibration: every operation once, no kill, one after another: each duration is the operation's own. In a kill
    // round they overlap and run slower, so a kill drawn within that duration falls while the operation runs.
    t = Date.now();
    const calibration = await prepare(ctx, operations);
    log(`calibration set up in ${Date.now() - t} ms`);
    const after = new Map<string, Print>();
    for (const p of calibration) {
      const started = Date.now();
      await p.op.start(ctx, p.subject);
      const tasks = await settle(server, p, settleMs);
      const extra = await p.op.observe?.(ctx, p.subject);
      durations[p.op.name] = Date.now() - started;
      const unfinished = tasks.filter((task) => task.status !== 'COMPLETED');
      if (unfinished.length > 0) throw new Error(`calibration: ${p.op.name} ended ${JSON.stringify(tasks)}`);
      after.set(p.op.name, await print(server, p.subject.id, extra));
    }
    log(`calibration: ${Object.entries(durations).map(([n, ms]) => `${n} ${ms} ms`).join(', ')}`);

    for (const [round, kill] of options.kills.entries()) {
      await server.refreshToken();
      t = Date.now();
      const prepared = await prepare(ctx, operations.filter((o) => kill.operations.includes(o.name)));
      log(`kill ${round + 1}: set up in ${Date.now() - t} ms`);
      const at = new Map(prepared.map((p) => [p.op.name, Math.floor(random() * durations[p.op.name]!)]));
      const killAt = Math.max(...at.values());
      const answered = new Set<string>();
      const begun = Date.now();
      const starts = prepared.map(async (p) => {
        await sleep(killAt - at.get(p.op.name)!);
        await p.op.start(ctx, p.subject).then(
          () => answered.add(p.op.name),
          () => {},
        );
      });
      await sleep(killAt - (Date.now() - begun));
      // What ran at the kill, read straight from the database just before it (an HTTP call under load takes too long).
      const activeAtKill = await server.activeWork();
      const ending = await server.kill(kill.target);
      await Promise.all(starts);
      t = Date.now();
      const restartFailure = await server.start().then(
        () => null,
        (err: Error) => `the server could not start again (${err.message.split(';')[0]}): ${lastFatal(dataDir)}`,
      );
      if (restartFailure) {
        for (const p of prepared) {
          results.push({ operation: p.op.name, target: kill.target, round: round + 1, atMs: at.get(p.op.name)!, durationMs: durations[p.op.name]!, hit: true, outcome: 'broken', detail: restartFailure });
        }
        log(`kill ${round + 1}/${options.kills.length} (${kill.target}): ${restartFailure}; the campaign stops here`);
        break;
      }
      log(`kill ${round + 1}/${options.kills.length} (${kill.target}) at ${killAt} ms; the server ${ending}; restarted in ${Date.now() - t} ms`);
      t = Date.now();

      await Promise.all(
        prepared.map(async (p) => {
          const result = await check(ctx, p, after.get(p.op.name)!, settleMs);
          const cutOff = !answered.has(p.op.name);
          const hit = cutOff || [...result.taskIds, p.subject.data?.exportId].some((id) => typeof id === 'string' && activeAtKill.has(id));
          const request = cutOff ? 'request cut off' : 'request answered';
          results.push({ operation: p.op.name, target: kill.target, round: round + 1, atMs: at.get(p.op.name)!, durationMs: durations[p.op.name]!, hit, outcome: result.outcome, detail: `${request}; ${result.detail}` });
          log(`  ${p.op.name}: killed ${at.get(p.op.name)} ms in (of ${durations[p.op.name]})${hit ? ' while it ran' : ' after it ended'}: ${result.outcome.toUpperCase()}, ${request}; ${result.detail}`);
        }),
      );
      log(`kill ${round + 1}: settled and checked in ${Date.now() - t} ms`);
    }
    return { seed: options.seed, results, durations };
  } catch (err) {
    failed = true;
    const tail = fs.existsSync(server.logFile) ? fs.readFileSync(server.logFile, 'utf8').slice(-3000) : '';
    throw new Error(`${(err as Error).message} (seed ${options.seed}; kept ${dataDir})\n${tail}`, { cause: err });
  } finally {
    await server.stop().catch(() => {});
    admin.destroy();
    await s3.close();
    await fake.close();
    // A failed or broken campaign keeps its data directory (the server's log is in it) for the diagnosis.
    if (!failed && !results.some((r) => r.outcome === 'broken') && !process.env.CHAOS_KEEP) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The embedded PostgreSQL's last FATAL line, for a restart that failed. */
function lastFatal(dataDir: string): string {
  const log = path.join(dataDir, 'pg.log');
  const fatal = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter((l) => l.includes('FATAL') && !l.includes('not yet accepting')) : [];
  return fatal.at(-1) ?? 'see the server log';
}

async function createBase(server: ChaosServer, photos: Array<{ name: string; bytes: Buffer }>): Promise<string> {
  const id = (await server.api('GET', '/api/v1/ingestion/new_dataset?dataset_name=chaos%20base')).body.dataset_id as string;
  const transId = (await server.api('GET', `/api/v1/ingestion/${id}/data_files`)).body.trans_id as number;
  const uploaded = await server.api('POST', `/api/v1/ingestion/${id}/data_files/${transId}`, form(photos));
  if (uploaded.status !== 202) throw new Error(`upload: ${uploaded.status} ${uploaded.text}`);
  await server.api('POST', `/api/v1/ingestion/${id}/process_files/${transId}`);
  await waitStatus(server, id, ['READY']);
  return id;
}

async function prepare(ctx: Context, operations: Operation[]): Promise<Prepared[]> {
  return Promise.all(
    operations.map(async (op) => {
      const subject = await op.setup(ctx);
      const before = await print(ctx.server, subject.id, await op.observe?.(ctx, subject));
      const taskIdsBefore = new Set((await tasksOf(ctx.server, subject.id)).map((t) => t.task_id));
      return { op, subject, before, taskIdsBefore };
    }),
  );
}

/** Waits until the operation's tasks (those its dataset and its copies got since the setup) have all ended, or the time is up. */
async function settle(server: ChaosServer, p: Prepared, timeout: number): Promise<Task[]> {
  let tasks: Task[] = [];
  await waitFor(
    async () => {
      tasks = (await tasksOf(server, p.subject.id)).filter((task) => !p.taskIdsBefore.has(task.task_id));
      return tasks.every(isFinal) ? true : undefined;
    },
    { timeout, interval: 100, what: `${p.op.name}'s tasks to end` },
  ).catch(() => {});
  return tasks;
}

async function check(ctx: Context, p: Prepared, after: Print, settleMs: number): Promise<{ outcome: Outcome; detail: string; taskIds: string[] }> {
  const verdict = await judge(ctx, p, after, settleMs);
  return { ...verdict, taskIds: (await tasksOf(ctx.server, p.subject.id)).map((task) => task.task_id) };
}

async function judge(ctx: Context, p: Prepared, after: Print, settleMs: number): Promise<{ outcome: Outcome; detail: string }> {
  const broken = (detail: string) => ({ outcome: 'broken' as const, detail });
  const health = await ctx.server.api('GET', '/api/v1/datasets?limit=1').catch((err: Error) => ({ status: 0, text: err.message }));
  if (health.status !== 200) return broken(`the server does not answer: ${health.status} ${health.text}`);
  const tasks = await settle(ctx.server, p, settleMs);
  const stuck = tasks.filter((task) => !isFinal(task));
  if (stuck.length > 0) return broken(`task(s) still ${stuck.map((task) => `${task.task_type} ${task.status}`).join(', ')} after ${settleMs / 1000} s`);
  const now = await print(ctx.server, p.subject.id, await p.op.observe?.(ctx, p.subject));
  const lost = await checkOriginals(ctx.server, p.subject.id, ctx.sent);
  if (lost.length > 0) return broken(`originals: ${lost.join('; ')}`);

  const log = fs.readFileSync(ctx.server.logFile, 'utf8');
  const resumed = (task: Task) => (log.includes(`"taskId":"${task.task_id}","msg":"task interrupted`) ? ', resumed' : '');
  const ended = tasks.map((task) => `${task.task_type} ${task.status}${resumed(task)}${task.error_message ? ` (${task.error_message})` : ''}`).join(', ') || 'no task';
  const failed = tasks.some((task) => task.status === 'FAILED' || task.status === 'ABORTED');
  const completed = tasks.some((task) => task.status === 'COMPLETED');
  if (samePrint(now, after)) return failed ? broken(`the dataset is "after" but ${ended}`) : { outcome: 'after', detail: ended };
  if (samePrint(now, p.before)) {
    if (failed) return { outcome: 'failed', detail: ended };
    return completed ? broken(`${ended} but the dataset is unchanged`) : { outcome: 'before', detail: ended };
  }
  // A failed task may leave its dataset ERROR (nothing else changed) and a copy it was making ERROR and empty.
  const unchanged = { ...now, dataset: { ...now.dataset, status: p.before.dataset.status }, derived: now.derived.filter((d) => !(d.status === 'ERROR' && d.media.length === 0)) };
  if (failed && now.dataset.status === 'ERROR' && samePrint(unchanged, p.before)) return { outcome: 'failed', detail: `${ended}; dataset ERROR` };
  if (failed && samePrint(unchanged, p.before)) return { outcome: 'failed', detail: `${ended}; copy ERROR` };
  return broken(`neither before nor after (${ended}): vs after ${firstDifference(now, after)}; vs before ${firstDifference(now, p.before)}`);
}

/** The table of kills × outcomes: one line per operation, a column group per target. */
export function formatTable(result: CampaignResult): string {
  const outcomes: Outcome[] = ['before', 'after', 'failed', 'broken'];
  const targets: KillTarget[] = ['server', 'postgres'];
  const ops = [...new Set(result.results.map((r) => r.operation))];
  const cell = (op: string, target: KillTarget) => {
    const rows = result.results.filter((r) => r.operation === op && r.target === target);
    if (rows.length === 0) return '-';
    return `${outcomes.map((o) => rows.filter((r) => r.outcome === o).length).join(' / ')}  (${rows.filter((r) => r.hit).length}/${rows.length} hit)`;
  };
  const width = Math.max(18, ...ops.map((o) => o.length));
  const head = `${'operation'.padEnd(width)}  ${'ms'.padStart(6)}  ${targets.map((t) => `${`SIGKILL ${t}`.padEnd(36)}`).join('  ')}`;
  const sub = `${''.padEnd(width)}  ${''.padStart(6)}  ${targets.map(() => outcomes.join(' / ').padEnd(36)).join('  ')}`;
  const lines = ops.map((op) => `${op.padEnd(width)}  ${String(result.durations[op] ?? '').padStart(6)}  ${targets.map((t) => cell(op, t).padEnd(36)).join('  ')}`);
  const legend = 'before/after: the dataset exactly as before or after; failed: its task FAILED cleanly, nothing changed; broken: an invariant broke. hit: kills that came while it ran';
  const broken = result.results.filter((r) => r.outcome === 'broken');
  const tail = broken.map((r) => `BROKEN ${r.operation}, ${r.target} killed at ${r.atMs} of ${r.durationMs} ms (kill ${r.round}): ${r.detail}`);
  return [`seed ${result.seed} (CHAOS_SEED=${result.seed} replays the kill points)`, head, sub, ...lines, legend, ...tail].join('\n');
}
