import type cliProgress from 'cli-progress';
import type { UploadProgress } from '../../sdk/src/index.js';
import { duration, megabytes } from './output.js';

/** Bars go to stderr, and only to a terminal: a pipe, a log file or --json gets none. */
export function barsWanted(json: boolean): boolean {
  return !json && process.stderr.isTTY === true;
}

interface Bar<T extends unknown[]> {
  update(...value: T): void;
  stop(): void;
}

interface Frame {
  value: number;
  total: number;
  payload: Record<string, unknown>;
}

// Loaded only for a terminal: scripts and tests never pay for it.
async function bar<T extends unknown[]>(enabled: boolean, format: string, frame: (...value: T) => Frame): Promise<Bar<T>> {
  if (!enabled) return { update() {}, stop() {} };
  const { default: progress } = await import('cli-progress');
  let started: cliProgress.SingleBar | null = null;
  return {
    update(...value: T) {
      const { value: done, total, payload } = frame(...value);
      if (!started) {
        started = new progress.SingleBar({ format, stream: process.stderr, hideCursor: true, clearOnComplete: false, fps: 5 }, progress.Presets.shades_classic);
        started.start(total, done, payload);
        return;
      }
      started.setTotal(total);
      started.update(done, payload);
    },
    stop() {
      started?.stop();
      started = null;
    },
  };
}

/** Files, MB, rate and ETA of a folder upload. */
export function uploadBar(enabled: boolean): Promise<Bar<[UploadProgress]>> {
  return bar(enabled, 'upload   {bar} {filesDone}/{filesTotal} files | {mbDone}/{mbTotal} MB | {rate} MB/s | ETA {etaText}', (p: UploadProgress) => ({
    value: p.bytesDone,
    total: Math.max(1, p.bytesTotal),
    payload: {
      filesDone: p.filesDone,
      filesTotal: p.filesTotal,
      mbDone: megabytes(p.bytesDone),
      mbTotal: megabytes(p.bytesTotal),
      rate: megabytes(p.rateBytesPerSecond),
      etaText: duration(p.etaSeconds),
    },
  }));
}

/** A dataset's or a task's progress percentage and status while --wait waits. */
export function statusBar(enabled: boolean, label: string): Promise<Bar<[number | null, string]>> {
  return bar(enabled, `${label.padEnd(8)} {bar} {percentage}% | {status}`, (percent: number | null, status: string) => ({
    value: Math.max(0, Math.min(100, percent ?? 0)),
    total: 100,
    payload: { status },
  }));
}

/** A download's bytes; without a Content-Length, only what arrived so far. */
export function downloadBar(enabled: boolean): Promise<Bar<[number, number | null]>> {
  const startedAt = Date.now();
  return bar(enabled, 'download {bar} {mbDone}/{mbTotal} MB | {rate} MB/s | ETA {etaText}', (done: number, total: number | null) => {
    const seconds = (Date.now() - startedAt) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    return {
      value: done,
      total: Math.max(1, total ?? done),
      payload: {
        mbDone: megabytes(done),
        mbTotal: total === null ? '?' : megabytes(total),
        rate: megabytes(rate),
        etaText: total === null ? '?' : duration(rate > 0 ? (total - done) / rate : null),
      },
    };
  });
}
