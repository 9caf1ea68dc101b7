import { openAsBlob, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import sharp from 'sharp';
import { workerPids } from './cpu.js';
import type { GeneratedFile } from './media-gen.js';

/** RSS of a process from /proc (bytes); 0 once it is gone. */
function rssOf(pid: string): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
    return line ? Number(line.split(/\s+/)[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * The RSS of a server's process plus its image and enrichment worker processes, every `intervalMs`
 * (timer unref'd); peaks are read back over any time window.
 */
export class RssSampler {
  private readonly samples: Array<{ at: number; rss: number }> = [];
  private readonly timer: NodeJS.Timeout;

  /** Samples a server (this process by default) with its pool workers. */
  constructor(intervalMs = 100, private readonly server: number = process.pid) {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs).unref();
  }

  sample(): number {
    const own = this.server === process.pid ? process.memoryUsage.rss() : rssOf(String(this.server));
    const rss = own + workerPids(this.server).reduce((sum, pid) => sum + rssOf(pid), 0);
    this.samples.push({ at: performance.now(), rss });
    return rss;
  }

  /** Highest sample taken in [from, to] (performance.now() times), with a fresh one if `to` is now. */
  peak(from = 0, to = Infinity): number {
    if (to === Infinity) this.sample();
    return this.samples.reduce((max, s) => (s.at >= from && s.at <= to && s.rss > max ? s.rss : max), 0);
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/**
 * Progress marks (%) the poll records. Dataset creation weighs media 4 : index 1 and writes floor(0.99 × percent),
 * so 79 is first written with >= 99.75 % of the files done and 80 only once the index stage is ~4 % in.
 */
export const PROGRESS_MARKS = [1, 25, 50, 75, 80, 90, 98];

export interface IngestResult {
  datasetId: string;
  /** The DATASET_CREATION task process_files started. */
  taskId: string;
  files: number;
  bytes: number;
  /** performance.now() marks: start, last upload answered, process_files sent, READY seen. */
  t: { start: number; uploaded: number; processStart: number; ready: number };
  /** performance.now() when the polled progress was first seen at or above each of PROGRESS_MARKS (%). */
  progressAt: Map<number, number>;
  nImages: number;
  nVideos: number;
}

export interface Dataset {
  status_new: string;
  progress: number;
  n_images: number;
  n_videos: number;
  fatal_error_msg: string | null;
}

async function api<T>(base: string, token: string, method: string, route: string, body?: FormData, expect = 200): Promise<T> {
  const res = await fetch(`${base}${route}`, { method, headers: { authorization: `Bearer ${token}` }, ...(body ? { body } : {}) });
  const text = await res.text();
  if (res.status !== expect) throw new Error(`${method} ${route}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/**
 * The documented client flow, one client: new_dataset → data_files → POST batches of `batchSize` files
 * (multipart field `files`, each part a Blob backed by the file on disk, so nothing is held in memory)
 * → process_files → GET the dataset every `pollMs` until READY (ERROR throws).
 */
export async function ingest(base: string, token: string, name: string, files: GeneratedFile[], batchSize = 50, pollMs = 200): Promise<IngestResult> {
  const start = performance.now();
  const { dataset_id: id } = await api<{ dataset_id: string }>(base, token, 'GET', `/api/v1/ingestion/new_dataset?dataset_name=${encodeURIComponent(name)}`);
  const { trans_id: trans } = await api<{ trans_id: number }>(base, token, 'GET', `/api/v1/ingestion/${id}/data_files`);
  for (let i = 0; i < files.length; i += batchSize) {
    const form = new FormData();
    for (const f of files.slice(i, i + batchSize)) form.append('files', await openAsBlob(f.path), f.name);
    await api(base, token, 'POST', `/api/v1/ingestion/${id}/data_files/${trans}`, form, 202);
  }
  const uploaded = performance.now();
  const processStart = performance.now();
  const { task_id: taskId } = await api<{ task_id: string }>(base, token, 'POST', `/api/v1/ingestion/${id}/process_files/${trans}`, undefined, 202);
  const progressAt = new Map<number, number>();
  for (;;) {
    const d = await api<Dataset>(base, token, 'GET', `/api/v1/dataset/${id}`);
    if (d.status_new === 'ERROR') throw new Error(`dataset ${name} ended in ERROR: ${d.fatal_error_msg}`);
    if (d.status_new === 'READY') {
      const ready = performance.now();
      const bytes = files.reduce((sum, f) => sum + f.bytes, 0);
      return { datasetId: id, taskId, files: files.length, bytes, t: { start, uploaded, processStart, ready }, progressAt, nImages: d.n_images, nVideos: d.n_videos };
    }
    for (const mark of PROGRESS_MARKS) if (d.progress >= mark && !progressAt.has(mark)) progressAt.set(mark, performance.now());
    await sleep(pollMs);
  }
}

/**
 * The ceiling for processing: what sharp alone does per image that processing also does (decode with
 * orientation, a 256 px WebP thumbnail at q75 and a ≤1024 px JPEG preview at q80 on white, as in
 * src/adapters/media/image.ts `analyzeImage`), `inFlight` files at a time.
 * Two independent pipelines per file, so each file is decoded twice (processing decodes once, then adds hashing).
 */
export async function rawResizeBaseline(files: GeneratedFile[], inFlight = 3): Promise<{ seconds: number; bytesOut: number }> {
  let next = 0;
  let bytesOut = 0;
  const start = performance.now();
  const lane = async () => {
    while (next < files.length) {
      const file = files[next++]!.path;
      const [thumb, preview] = await Promise.all([
        sharp(file).rotate().resize(256, 256, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 75 }).toBuffer(),
        sharp(file).rotate().resize(1024, 1024, { fit: 'inside', withoutEnlargement: true }).flatten({ background: '#ffffff' }).jpeg({ quality: 80 }).toBuffer(),
      ]);
      bytesOut += thumb.length + preview.length;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  return { seconds: (performance.now() - start) / 1000, bytesOut };
}
