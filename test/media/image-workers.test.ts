import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { ImageDecodeError, analyzeImage } from '../../src/adapters/media/image.js';
import { ImageWorkerPool } from '../../src/adapters/media/image-workers.js';
import { childProcesses, threadsOf } from '../support/proc.js';

/** The child processes of `parent` running `script`, with the nice value and scheduling policy of each of their threads. */
function workerProcesses(script: string, parent = process.pid): Array<{ pid: number; nices: number[]; policies: number[] }> {
  return childProcesses(parent, script).flatMap((pid) => {
    try {
      const threads = threadsOf(pid);
      return [{ pid, nices: threads.map((t) => t.nice), policies: threads.map((t) => t.policy) }];
    } catch {
      return []; // gone between the listing and the read
    }
  });
}

describe.each([
  ['threads', undefined],
  ['child processes at nice 10', 10],
])('ImageWorkerPool on %s', (_mode, nice) => {
  const pool = new ImageWorkerPool(2, undefined, nice);
  afterAll(() => pool.close());

  it('gives the same analysis as the main thread, for several images at once', async () => {
    const files = ['dog.jpg', 'person.jpg', 'horses.jpg', 'chelsea.png'].map((f) => `test/fixtures/photos/${f}`);
    const formats = ['jpeg', 'jpeg', 'jpeg', 'png'];
    const [inWorkers, inMain] = await Promise.all([
      Promise.all(files.map((f, i) => pool.analyze(f, formats[i]!))),
      Promise.all(files.map((f, i) => analyzeImage(f, formats[i]!))),
    ]);
    for (const [i, a] of inWorkers.entries()) {
      const b = inMain[i]!;
      expect({ ...a, thumbnail: a.thumbnail.length, preview: a.preview?.length }).toEqual({ ...b, thumbnail: b.thumbnail.length, preview: b.preview?.length });
      expect(Buffer.isBuffer(a.thumbnail)).toBe(true);
    }
  });

  it('decodes HEIC off the main thread', async () => {
    expect(await pool.analyze('test/fixtures/photos/small.heic', 'heic')).toMatchObject({ width: 64, height: 48 });
  });

  it('passes ImageDecodeError across the thread boundary', async () => {
    await expect(pool.analyze('package.json', 'jpeg')).rejects.toBeInstanceOf(ImageDecodeError);
  });

  it('rejects at once with the abort reason', async () => {
    const controller = new AbortController();
    const pending = pool.analyze('test/fixtures/photos/dog.jpg', 'jpeg', controller.signal);
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
    await expect(pool.analyze('test/fixtures/photos/dog.jpg', 'jpeg', controller.signal)).rejects.toThrow('stop');
  });
});

describe.runIf(process.platform === 'linux')('ImageWorkerPool in child processes', () => {
  it('runs every thread of its workers at the nice value asked, and stops them on close', async () => {
    // Other files' servers in this process may hold image workers of their own.
    const others = new Set(workerProcesses('image-worker.mjs').map((w) => w.pid));
    const pool = new ImageWorkerPool(2, undefined, 12);
    await Promise.all(['dog.jpg', 'person.jpg'].map((f) => pool.analyze(`test/fixtures/photos/${f}`, 'jpeg')));
    const workers = workerProcesses('image-worker.mjs').filter((w) => !others.has(w.pid));
    expect(workers).toHaveLength(2);
    for (const w of workers) {
      expect(w.nices.length).toBeGreaterThan(4); // libuv, libvips and V8 threads besides the main one
      expect(new Set(w.nices)).toEqual(new Set([12]));
      // SCHED_IDLE (5) where util-linux's chrt is there and allowed to set it, else the normal policy (0)
      expect(new Set(w.policies)).toEqual(new Set([spawnSync('chrt', ['--idle', '0', 'true']).status === 0 ? 5 : 0]));
    }
    await pool.close();
    const mine = new Set(workers.map((w) => w.pid));
    expect(workerProcesses('image-worker.mjs').filter((w) => mine.has(w.pid))).toEqual([]);
  });

  it('ends its workers when the process that started them is killed', async () => {
    const script = `
      const { ImageWorkerPool } = await import('./src/adapters/media/image-workers.ts');
      const pool = new ImageWorkerPool(2, undefined, 10);
      await Promise.all([pool.analyze('test/fixtures/photos/dog.jpg', 'jpeg'), pool.analyze('test/fixtures/photos/person.jpg', 'jpeg')]);
      console.log('ready');
      setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      parent.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
      parent.once('exit', (code) => reject(new Error(`parent exited with ${code}`)));
    });
    const workers = workerProcesses('image-worker.mjs', parent.pid!);
    expect(workers).toHaveLength(2);
    parent.kill('SIGKILL');
    const alive = () => workers.filter((w) => {
      try {
        return !readFileSync(`/proc/${w.pid}/stat`, 'utf8').includes(') Z');
      } catch {
        return false;
      }
    });
    for (let i = 0; i < 50 && alive().length > 0; i++) await sleep(100);
    expect(alive()).toEqual([]);
  });
});
