import { type MessagePort, Worker } from 'node:worker_threads';
import sharp from 'sharp';
import type { GeneratedFile } from './media-gen.js';

/** What each embedding worker thread gets: every input, side² × 3 bytes apiece, back to back in shared memory. */
interface EmbedWorkerData {
  inputSize: number;
  pixels: SharedArrayBuffer;
}

type ToWorker = { op: 'embed'; index: number } | { op: 'close' };
type FromWorker = { op: 'ready' } | { op: 'done'; index: number } | { op: 'error'; message: string };

export interface EmbedBaselineResult {
  /** Embedding all the inputs, first request sent to last vector back. */
  seconds: number;
  /** Decoding + resizing the JPEGs to the input square with sharp beforehand (not part of `seconds`). */
  decodeSeconds: number;
  /** Spawning the threads, loading the model in each (with its warm-up run) and one untimed embedding each. */
  startSeconds: number;
  workers: number;
}

/**
 * The embedder alone, as production runs it (one CenterNet embedder per image worker thread, `workers` threads),
 * minus everything around it: the JPEGs are decoded and squeezed to `inputSize`² RGB on white by sharp beforehand
 * (what `embedPixels` in src/adapters/media/image.ts hands the model), untimed, into one SharedArrayBuffer; then
 * each thread loads its embedder, embeds one input untimed, and the timed part hands out the inputs one at a time
 * to whichever thread is free (one in flight per thread, like the round-robin image pool with as many files in
 * flight as threads) until every input has its vector.
 */
export async function embedderAloneBaseline(files: GeneratedFile[], options: { workers: number; inputSize: number }): Promise<EmbedBaselineResult> {
  const { workers: count, inputSize } = options;
  const stride = inputSize * inputSize * 3;
  const pixels = new SharedArrayBuffer(files.length * stride);

  const decodeStart = performance.now();
  let next = 0;
  const lane = async () => {
    while (next < files.length) {
      const i = next++;
      const rgb = await sharp(files[i]!.path)
        .rotate()
        .flatten({ background: '#ffffff' })
        .resize(inputSize, inputSize, { fit: 'fill' })
        .removeAlpha()
        .raw()
        .toBuffer();
      if (rgb.length !== stride) throw new Error(`${files[i]!.name}: decoded to ${rgb.length} bytes, expected ${stride}`);
      new Uint8Array(pixels, i * stride, stride).set(rgb);
    }
  };
  await Promise.all(Array.from({ length: count }, lane));
  const decodeSeconds = (performance.now() - decodeStart) / 1000;

  const startStart = performance.now();
  const workerData: EmbedWorkerData = { inputSize, pixels };
  const threads = Array.from({ length: count }, () => new Worker(new URL('./embed-baseline-worker.mjs', import.meta.url), { execArgv: [], workerData }));
  try {
    const ready = await Promise.all(
      threads.map(
        (worker, w) =>
          new Promise<Worker>((resolve, reject) => {
            worker.once('error', reject);
            worker.once('exit', (code) => reject(new Error(`embedding worker exited with code ${code}`)));
            const onMessage = (msg: FromWorker) => {
              if (msg.op === 'error') reject(new Error(`embedding worker: ${msg.message}`));
              // Loaded: one untimed embedding (of a different input per thread), then it is ready.
              else if (msg.op === 'ready') worker.postMessage({ op: 'embed', index: w % files.length } satisfies ToWorker);
              else if (msg.op === 'done') {
                worker.off('message', onMessage);
                resolve(worker);
              }
            };
            worker.on('message', onMessage);
          }),
      ),
    );
    const startSeconds = (performance.now() - startStart) / 1000;

    const start = performance.now();
    await new Promise<void>((resolve, reject) => {
      let handed = 0;
      let done = 0;
      const feed = (worker: Worker) => {
        if (handed < files.length) worker.postMessage({ op: 'embed', index: handed++ } satisfies ToWorker);
      };
      for (const worker of ready) {
        worker.on('message', (msg: FromWorker) => {
          if (msg.op === 'error') return reject(new Error(`embedding worker: ${msg.message}`));
          if (msg.op !== 'done') return;
          if (++done === files.length) return resolve();
          feed(worker);
        });
        feed(worker);
      }
      if (files.length === 0) resolve();
    });
    const seconds = (performance.now() - start) / 1000;
    return { seconds, decodeSeconds, startSeconds, workers: count };
  } finally {
    for (const worker of threads) worker.removeAllListeners();
    await Promise.all(threads.map((worker) => worker.terminate()));
  }
}

/** Worker-thread side (started by embed-baseline-worker.mjs): load the embedder, then embed inputs by index. */
export async function serveEmbedWorker(port: MessagePort | null, data: EmbedWorkerData): Promise<void> {
  if (!port) throw new Error('embedding worker started outside a worker thread');
  const fail = (err: unknown) => port.postMessage({ op: 'error', message: err instanceof Error ? err.message : String(err) } satisfies FromWorker);
  const { loadImageEmbedder } = await import('../../src/adapters/models/image-embedder.js');
  const { inputSize, pixels } = data;
  const stride = inputSize * inputSize * 3;
  let embedder;
  try {
    embedder = await loadImageEmbedder(inputSize);
  } catch (err) {
    fail(err);
    return;
  }
  const model = embedder;
  port.on('message', (msg: ToWorker) => {
    if (msg.op === 'close') {
      void model.close();
      return;
    }
    // A private copy, as sharp's output buffer is in production.
    const rgb = new Uint8Array(pixels, msg.index * stride, stride).slice();
    model.embed({ data: rgb, width: inputSize, height: inputSize }).then(
      () => port.postMessage({ op: 'done', index: msg.index } satisfies FromWorker),
      fail,
    );
  });
  port.postMessage({ op: 'ready' } satisfies FromWorker);
}
