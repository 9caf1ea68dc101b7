import { createHash } from 'node:crypto';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { ChaosServer } from './server.js';

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const FINAL = ['COMPLETED', 'FAILED', 'ABORTED'];

export interface Task {
  task_id: string;
  task_type: string;
  status: string;
  error_message: string | null;
}

/** What a dataset is, without ids or times: two datasets made the same way (in two rounds) print the same. */
export interface DatasetPrint {
  name: string;
  status: string;
  n_images: number;
  n_videos: number;
  media: unknown[];
  snapshots: unknown[];
}

/** A dataset as the API shows it, and the datasets made from it (a clone, an enriched copy). */
export interface Print {
  dataset: DatasetPrint;
  derived: DatasetPrint[];
  extra?: unknown;
}

async function json(server: ChaosServer, route: string): Promise<any> {
  const res = await server.api('GET', route);
  if (res.status !== 200) throw new Error(`GET ${route}: ${res.status} ${res.text}`);
  return res.body;
}

export async function printDataset(server: ChaosServer, id: string): Promise<DatasetPrint> {
  const [dataset, list, snapshots] = await Promise.all([
    json(server, `/api/v1/dataset/${id}`),
    json(server, `/api/v1/dataset/${id}/media?limit=500`),
    json(server, `/api/v1/dataset/${id}/snapshot`),
  ]);
  const media = (list.media as any[])
    .map((m) => ({
      file_name: m.file_name,
      media_type: m.media_type,
      tags: [...m.tags].sort(),
      label: m.label,
      custom_fields: m.custom_fields,
      caption: m.caption,
      objects: (m.objects as Array<{ label: string }>).map((o) => o.label).sort(),
    }))
    .sort((a, b) => a.file_name.localeCompare(b.file_name));
  return {
    name: dataset.display_name,
    status: dataset.status_new,
    n_images: dataset.n_images,
    n_videos: dataset.n_videos,
    media,
    snapshots: (snapshots as any[]).map((s) => ({ name: String(s.snapshot_name).replace(UUID, '<id>'), reason: s.reason, is_current: s.is_current, n_images: s.n_images })),
  };
}

/** Datasets made from `id` (source_dataset_id), oldest first. */
export async function derivedIds(server: ChaosServer, id: string): Promise<string[]> {
  const all = (await json(server, '/api/v1/datasets?limit=500')) as Array<{ id: string; source_dataset_id: string | null; created_at: string }>;
  return all.filter((d) => d.source_dataset_id === id).sort((a, b) => a.created_at.localeCompare(b.created_at)).map((d) => d.id);
}

export async function print(server: ChaosServer, id: string, extra?: unknown): Promise<Print> {
  const derived = await Promise.all((await derivedIds(server, id)).map((d) => printDataset(server, d)));
  return { dataset: await printDataset(server, id), derived, ...(extra === undefined ? {} : { extra }) };
}

export const samePrint = (a: unknown, b: unknown) => isDeepStrictEqual(a, b);

/** The tasks of a dataset and of the datasets made from it. */
export async function tasksOf(server: ChaosServer, id: string): Promise<Task[]> {
  const ids = [id, ...(await derivedIds(server, id))];
  const lists = await Promise.all(ids.map((d) => json(server, `/api/v1/tasks?dataset_id=${d}&page_size=50`)));
  return lists.flatMap((l) => l.tasks as Task[]);
}

export const isFinal = (task: Task) => FINAL.includes(task.status);

/**
 * Every original of the dataset and of those made from it, fetched and hashed: each must equal the bytes sent under
 * its file name. Returns what differs, empty when all is well.
 */
export async function checkOriginals(server: ChaosServer, id: string, sent: Map<string, string>): Promise<string[]> {
  const problems: string[] = [];
  for (const datasetId of [id, ...(await derivedIds(server, id))]) {
    const list = await json(server, `/api/v1/dataset/${datasetId}/media?limit=500`);
    for (const m of list.media as Array<{ media_id: string; file_name: string; media_type: string }>) {
      if (m.media_type === 'VIDEO_FRAME') continue;
      // An archive's entries keep their folder in the name.
      const expected = sent.get(path.basename(m.file_name));
      if (!expected) {
        problems.push(`${m.file_name}: a media nobody sent`);
        continue;
      }
      try {
        const got = sha256(await server.original(datasetId, m.media_id));
        if (got !== expected) problems.push(`${m.file_name}: original hashes ${got.slice(0, 12)}, sent ${expected.slice(0, 12)}`);
      } catch (err) {
        problems.push(`${m.file_name}: ${(err as Error).message}`);
      }
    }
  }
  return problems;
}

/** The first difference between two prints, as a short path and both values, for a broken round's line. */
export function firstDifference(a: unknown, b: unknown, at = ''): string {
  if (isDeepStrictEqual(a, b)) return '';
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const diff = firstDifference((a as any)[key], (b as any)[key], `${at}.${key}`);
      if (diff) return diff;
    }
  }
  return `${at || '.'}: ${JSON.stringify(a)?.slice(0, 200)} vs ${JSON.stringify(b)?.slice(0, 200)}`;
}
