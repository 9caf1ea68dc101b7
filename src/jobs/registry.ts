import type { Logger } from 'pino';
import type { Db } from '../adapters/db/database.js';
import { TASK_TYPES, type TaskType } from '../core/tasks.js';
import { EXPORT_JOB } from '../modules/exports/exports.repo.js';
import { HEAD_SUMMARIES_JOB } from '../modules/versions/facet-summaries.js';
import { customMetadataJob } from './custom-metadata.job.js';
import { datasetCreationJob } from './dataset-creation.job.js';
import { enrichmentJob } from './enrichment.job.js';
import { type ExportJobDeps, runExport } from './export.job.js';
import { labelPropagationJob } from './label-propagation.job.js';
import { dedupJob } from './dedup.job.js';
import { selectionJob } from './selection.job.js';
import { leakageJob } from './leakage.job.js';
import { labelErrorsJob } from './label-errors.job.js';
import { mediaAdditionJob } from './media-addition.job.js';
import { TASK_CHUNK_JOB, taskChunkJob } from './task-chunks.js';
import { reindexJob } from './reindex.job.js';
import { snapshotCloneJob } from './snapshot-clone.job.js';
import { snapshotRestoreJob } from './snapshot-restore.job.js';
import { SWEEP_NAMES, type SweepName, type SweepPass, blobsSweep, expiredExportsSweep, stagingTablesSweep, summariesSweep, versionsSweep } from './sweeps.js';

/** What a handler gets: ids and config re-read from the task row, progress, abort, and the commit phase. */
export interface TaskContext {
  taskId: string;
  /** This run of the task (counted from 1; a resume or a retry is a new run). */
  attempt: number;
  taskType: TaskType;
  datasetId: string;
  createdBy: string;
  config: Record<string, unknown>;
  /** Fires when a user aborts the task or the worker shuts down; check it between units of work. */
  signal: AbortSignal;
  log: Logger;
  /** Records progress (0–100) and throws if the task was aborted meanwhile. */
  progress(percentage: number | null, message?: string): Promise<void>;
  /**
   * Enters the final phase (abort is refused from here) and runs `work` in the same database
   * transaction that marks the task COMPLETED, so results and completion land together or not at all.
   * `message` may be made from what `work` returns (e.g. how many rows it changed).
   */
  commit<T>(work: (trx: Db) => Promise<T>, message?: string | ((result: T) => string)): Promise<T>;
}

export type TaskHandler = (ctx: TaskContext) => Promise<void>;

/** The handler of one task type (a job file's export; tests register stand-ins of the same shape). */
export interface JobDefinition {
  type: TaskType;
  handler: TaskHandler;
}

/** A queue job that is no Task Manager task (an export, a head's summaries): its payload, and a signal that fires on shutdown. */
export type PayloadHandler = (payload: unknown, signal: AbortSignal) => Promise<void>;

/** What the head summaries' job needs: a dataset's head summarised (facets, list anchors), unless it is already. */
export interface HeadSummariesJobDeps {
  summariseHeadFacets(datasetId: string): Promise<boolean>;
}

/** Every job the worker runs, by its queue name: task jobs, payload jobs, and recurring sweeps. */
export type RegisteredJob =
  | { kind: 'task'; name: TaskType; handler: TaskHandler }
  | { kind: 'payload'; name: string; handler: PayloadHandler }
  | { kind: 'sweep'; name: SweepName; handler: SweepPass };

const task = <D>(make: (deps: D) => JobDefinition) => ({ kind: 'task' as const, make });
const payload = <D>(make: (deps: D) => PayloadHandler) => ({ kind: 'payload' as const, make });
const sweep = <D>(make: (deps: D) => SweepPass) => ({ kind: 'sweep' as const, make });

/**
 * The one declaration of every job this build runs, each with the narrow dependencies it uses
 * (the container builds them, `JobDeps`). Task jobs are keyed by their task type, so a type with no
 * entry does not compile; `checkRegistry` repeats the check at boot for what tests register.
 */
const JOBS = {
  DATASET_CREATION: task(datasetCreationJob),
  MEDIA_ADDITION: task(mediaAdditionJob),
  REINDEX: task(reindexJob),
  ENRICHMENT: task(enrichmentJob),
  CUSTOM_METADATA: task(customMetadataJob),
  SNAPSHOT_RESTORE: task(snapshotRestoreJob),
  SNAPSHOT_CLONE: task(snapshotCloneJob),
  LABEL_PROPAGATION: task(labelPropagationJob),
  DEDUP: task(dedupJob),
  SELECTION: task(selectionJob),
  LEAKAGE: task(leakageJob),
  LABEL_ERRORS: task(labelErrorsJob),
  [EXPORT_JOB]: payload((deps: ExportJobDeps) => (body, signal) => runExport(deps, (body as { exportId: string }).exportId, signal)),
  [TASK_CHUNK_JOB]: payload(taskChunkJob),
  [HEAD_SUMMARIES_JOB]: payload((deps: HeadSummariesJobDeps) => async (body) => {
    await deps.summariseHeadFacets((body as { datasetId: string }).datasetId);
  }),
  'sweep-expired-exports': sweep(expiredExportsSweep),
  'sweep-staging-tables': sweep(stagingTablesSweep),
  'sweep-versions': sweep(versionsSweep),
  'sweep-blobs': sweep(blobsSweep),
  'sweep-summaries': sweep(summariesSweep),
} satisfies Record<TaskType | SweepName, unknown> & Record<string, { kind: RegisteredJob['kind'] }>;

type Declared = typeof JOBS;
type DepsOf<J> = J extends { make: (deps: infer D) => unknown } ? D : never;

/** What each job needs, by job name: the container builds exactly this, no shared bag. */
export type JobDeps = { [Name in keyof Declared]: DepsOf<Declared[Name]> };

/** Every job name the worker must have a handler for: each task type, the export, task chunk and head summaries jobs, each sweep. */
export const REQUIRED_JOBS: readonly string[] = [...TASK_TYPES, EXPORT_JOB, TASK_CHUNK_JOB, HEAD_SUMMARIES_JOB, ...SWEEP_NAMES];

/** The declared jobs built from their dependencies; `overrides` replace the task handlers of the same types (tests). */
export function declaredJobs(deps: JobDeps, overrides: readonly JobDefinition[] = []): RegisteredJob[] {
  const replaced = new Set(overrides.map((o) => o.type));
  const jobs: RegisteredJob[] = [];
  for (const name of Object.keys(JOBS) as Array<keyof Declared>) {
    const declared = JOBS[name];
    const make = declared.make as (d: unknown) => unknown;
    if (declared.kind === 'task') {
      if (replaced.has(name as TaskType)) continue;
      const def = make(deps[name]) as JobDefinition;
      jobs.push({ kind: 'task', name: def.type, handler: def.handler });
    } else if (declared.kind === 'payload') jobs.push({ kind: 'payload', name, handler: make(deps[name]) as PayloadHandler });
    else jobs.push({ kind: 'sweep', name: name as SweepName, handler: make(deps[name]) as SweepPass });
  }
  for (const o of overrides) jobs.push({ kind: 'task', name: o.type, handler: o.handler });
  return jobs;
}

/**
 * Refuses to boot on a bad registry: a job name nobody declared, a name with two handlers, or a
 * required name (every task type, the export job, every sweep) with no handler at all.
 */
export function checkRegistry(jobs: readonly RegisteredJob[]): Map<string, RegisteredJob> {
  const byName = new Map<string, RegisteredJob>();
  const problems: string[] = [];
  for (const job of jobs) {
    if (!REQUIRED_JOBS.includes(job.name) || (job.kind === 'task' && !TASK_TYPES.includes(job.name))) problems.push(`unknown job ${job.name}`);
    else if (byName.has(job.name)) problems.push(`job ${job.name} has more than one handler`);
    else byName.set(job.name, job);
  }
  for (const name of REQUIRED_JOBS) if (!byName.has(name)) problems.push(`job ${name} has no handler`);
  if (problems.length > 0) throw new Error(`Invalid job registry: ${problems.join('; ')}`);
  return byName;
}
