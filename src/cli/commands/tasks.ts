import { Option, type Command } from 'commander';
import type { Loupe, Task, TaskFilters } from '../../../sdk/src/index.js';
import { connect } from '../client.js';
import { EXIT } from '../exit-codes.js';
import { withInterrupt } from '../interrupt.js';
import { print } from '../output.js';
import { integer, withJson } from '../options.js';
import { taskLine, taskTable } from '../present.js';

type TaskType = NonNullable<TaskFilters['task_type']>;
type TaskStatus = NonNullable<TaskFilters['task_status']>;

interface ListOptions {
  dataset?: string;
  datasetName?: string;
  type?: TaskType;
  status?: TaskStatus;
  createdBy?: string;
  from?: string;
  to?: string;
  limit: number;
  json?: boolean;
}

const TYPES: TaskType[] = ['DATASET_CREATION', 'MEDIA_ADDITION', 'REINDEX', 'ENRICHMENT', 'CUSTOM_METADATA', 'SNAPSHOT_RESTORE', 'SNAPSHOT_CLONE', 'LABEL_PROPAGATION', 'DEDUP', 'SELECTION', 'LEAKAGE', 'LABEL_ERRORS'];
const STATUSES: TaskStatus[] = ['INITIALIZING', 'RUNNING', 'COMPLETED', 'FAILED', 'ABORTED'];
const UNFINISHED = new Set<string>(['INITIALIZING', 'RUNNING']);

export function tasksCommands(program: Command): void {
  const tasks = program.command('tasks').description('list, watch, abort and retry tasks on the datasets you can see');

  withJson(
    tasks
      .command('list')
      .description('tasks, newest first')
      .option('--dataset <dataset_id>', 'on this dataset')
      .option('--dataset-name <name>', 'on datasets of this name')
      .addOption(new Option('--type <task_type>', 'of this type').choices(TYPES))
      .addOption(new Option('--status <status>', 'in this status').choices(STATUSES))
      .option('--created-by <email>', 'started by this user')
      .option('--from <time>', 'started at or after this ISO 8601 time')
      .option('--to <time>', 'started at or before this ISO 8601 time')
      .option('--limit <n>', 'at most this many', integer(1), 50),
    'an array of tasks',
  ).action(async (opts: ListOptions) => {
    const filters = {
      dataset_id: opts.dataset,
      dataset_name: opts.datasetName,
      task_type: opts.type,
      task_status: opts.status,
      created_by: opts.createdBy,
      start_time_from: opts.from,
      start_time_to: opts.to,
    };
    const list: Task[] = [];
    for await (const t of connect().tasks(filters)) {
      list.push(t);
      if (list.length >= opts.limit) break;
    }
    print(list, Boolean(opts.json), () => taskTable(list));
  });

  withJson(
    tasks
      .command('watch')
      .description('follow a task (or, without an id, every unfinished one) until it ends: a line at each change; exit 1 if one failed or was aborted')
      .argument('[task_id]'),
    'the ended task, or without an id an array of them',
  ).action(async (taskId: string | undefined, opts: { json?: boolean }) => {
    const loupe = connect();
    const json = Boolean(opts.json);
    const ids = taskId ? [taskId] : await unfinishedTasks(loupe);
    if (ids.length === 0 && !json) process.stdout.write('(no unfinished tasks)\n');
    const ended = await withInterrupt('stopped watching; the tasks go on on the server', (signal) => follow(loupe, ids, json, signal));
    print(taskId ? ended[0] : ended, json, '');
    if (ended.some((t) => t.status !== 'COMPLETED')) process.exitCode = EXIT.failure;
  });

  withJson(tasks.command('abort').description('abort a running DATASET_CREATION task').argument('<task_id>'), 'the task')
    .action(async (taskId: string, opts: { json?: boolean }) => {
      const t = (await connect().abortTask(taskId)) as Task;
      print(t, Boolean(opts.json), () => taskLine(t));
    });

  withJson(tasks.command('retry').description('run a FAILED or ABORTED DATASET_CREATION task again').argument('<task_id>'), 'the task')
    .action(async (taskId: string, opts: { json?: boolean }) => {
      const t = (await connect().retryTask(taskId)) as Task;
      print(t, Boolean(opts.json), () => taskLine(t));
    });
}

async function unfinishedTasks(loupe: Loupe): Promise<string[]> {
  const ids: string[] = [];
  for (const status of ['INITIALIZING', 'RUNNING'] as const) for await (const t of loupe.tasks({ task_status: status })) ids.push(t.task_id);
  return ids;
}

/** Polls each task once a second, printing a line when its status, progress or message changes, until all have ended. */
async function follow(loupe: Loupe, ids: string[], json: boolean, signal: AbortSignal): Promise<Task[]> {
  const seen = new Map<string, string>();
  const ended = new Map<string, Task>();
  for (;;) {
    for (const id of ids.filter((i) => !ended.has(i))) {
      const t = await loupe.task(id);
      const line = taskLine(t);
      if (!json && seen.get(id) !== line) process.stdout.write(`${line}\n`);
      seen.set(id, line);
      if (!UNFINISHED.has(t.status)) ended.set(id, t);
    }
    if (ended.size === ids.length) return ids.map((id) => ended.get(id)!);
    await new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, 1_000);
      signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
    });
  }
}
