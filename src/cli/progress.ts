import cliProgress from 'cli-progress';
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

function bar<T extends unknown[]>(enabled: boolean, format: string, render: (b: cliProgress.SingleBar, ...value: T) => void): Bar<T> {
  if (!enabled) return { update() {}, stop() {} };
  let started: cliProgress.SingleBar | null = null;
  return {
    update(...value: T) {
      if (!started) {
        started = new cliProgress.SingleBar({ format, stream: process.stderr, hideCursor: true, clearOnComplete: false, fps: 5 }, cliProgress.Presets.shades_classic);
        started.start(1, 0);
      }
      render(started, ...value);
    },
    stop() {
      started?.stop();
      started = null;
    },
  };
}

/** Files, MB, rate and ETA of a folder upload. */
export function uploadBar(enabled: boolean): Bar<[UploadProgress]> {
  return bar(enabled, 'upload   {bar} {filesDone}/{filesTotal} files | {mbDone}/{mbTotal} MB | {rate} MB/s | ETA {eta}', (b, p) => {
    b.setTotal(Math.max(1, p.bytesTotal));
    b.update(p.bytesDone, {
      filesDone: p.filesDone,
      filesTotal: p.filesTotal,
      mbDone: megabytes(p.bytesDone),
      mbTotal: megabytes(p.bytesTotal),
      rate: megabytes(p.rateBytesPerSecond),
      eta: duration(p.etaSeconds),
    });
  });
}

/** A dataset's or a task's progress percentage and status while --wait waits. */
export function statusBar(enabled: boolean, label: string): Bar<[number | null, string]> {
  return bar(enabled, `${label.padEnd(8)} {bar} {percentage}% | {status}`, (b, percent, status) => {
    b.setTotal(100);
    b.update(Math.max(0, Math.min(100, percent ?? 0)), { status });
  });
}

/** A download's bytes; without a Content-Length, only what arrived so far. */
export function downloadBar(enabled: boolean): Bar<[number, number | null]> {
  const startedAt = Date.now();
  return bar(enabled, 'download {bar} {mbDone}/{mbTotal} MB | {rate} MB/s | ETA {eta_formatted}', (b, done, total) => {
    const seconds = (Date.now() - startedAt) / 1000;
    b.setTotal(Math.max(1, total ?? done));
    b.update(done, { mbDone: megabytes(done), mbTotal: total === null ? '?' : megabytes(total), rate: megabytes(seconds > 0 ? done / seconds : 0) });
  });
}
