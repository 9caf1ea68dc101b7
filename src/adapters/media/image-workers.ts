import { Worker } from 'node:worker_threads';
import { type CropBox, type ImageAnalysis, ImageDecodeError, type MediaEmbedding } from './image.js';
import type { ImageWorkerOptions, ImageWorkerReply, ImageWorkerRequest } from './image-worker-serve.js';

interface Pending {
  resolve: (reply: ImageWorkerReply & { ok: true }) => void;
  reject: (err: Error) => void;
}

type Request = ImageWorkerRequest extends infer R ? (R extends ImageWorkerRequest ? Omit<R, 'id'> : never) : never;

/**
 * Image analysis on worker threads: decoding is mostly in libvips threads already, but HEIC (wasm),
 * BMP, the perceptual hash and the quality measures are JavaScript and would block the API's event loop.
 * Requests go round-robin; a worker that dies fails its requests and is replaced.
 */
export class ImageWorkerPool {
  private readonly workers: Array<{ worker: Worker; pending: Map<number, Pending> }> = [];
  private nextId = 1;
  private turn = 0;
  private closed = false;

  constructor(
    private readonly size: number,
    private readonly options: ImageWorkerOptions = { embeddingInputSize: null },
  ) {}

  async analyze(filePath: string, format: string, signal?: AbortSignal): Promise<ImageAnalysis> {
    const reply = await this.request({ op: 'analyze', filePath, format }, signal);
    if (reply.op !== 'analyze') throw new Error(`unexpected ${reply.op} reply`);
    const { thumbnail, preview } = reply.result;
    return { ...reply.result, thumbnail: Buffer.from(thumbnail), preview: preview ? Buffer.from(preview) : null };
  }

  /** The embedding of an image file (or of a region of it), by the same model that indexes datasets. */
  async embed(filePath: string, format: string, crop?: CropBox, signal?: AbortSignal): Promise<MediaEmbedding> {
    const reply = await this.request({ op: 'embed', filePath, format, crop: crop ?? null }, signal);
    if (reply.op !== 'embed') throw new Error(`unexpected ${reply.op} reply`);
    return reply.result;
  }

  private request(request: Request, signal?: AbortSignal): Promise<ImageWorkerReply & { ok: true }> {
    if (signal?.aborted) return Promise.reject(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));
    if (this.closed) return Promise.reject(new Error('image worker pool is closed'));
    const slot = this.slot();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        slot.pending.delete(id);
        if (slot.pending.size === 0) slot.worker.unref();
        reject(signal!.reason instanceof Error ? signal!.reason : new Error(String(signal!.reason)));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const settle = <T>(fn: (v: T) => void) => (v: T) => {
        signal?.removeEventListener('abort', onAbort);
        // An idle worker must not keep the process alive; a busy one must.
        if (slot.pending.size === 0) slot.worker.unref();
        fn(v);
      };
      slot.pending.set(id, { resolve: settle(resolve), reject: settle(reject) });
      slot.worker.ref();
      slot.worker.postMessage({ id, ...request } as ImageWorkerRequest);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.workers.map((w) => w.worker.terminate()));
    this.workers.length = 0;
  }

  private slot() {
    if (this.workers.length < this.size) this.workers.push(this.spawn());
    const slot = this.workers[this.turn++ % this.workers.length]!;
    return slot;
  }

  private spawn() {
    const worker = new Worker(new URL('./image-worker.mjs', import.meta.url), { execArgv: [], workerData: this.options });
    const slot = { worker, pending: new Map<number, Pending>() };
    worker.on('message', (reply: ImageWorkerReply) => {
      const pending = slot.pending.get(reply.id);
      if (!pending) return;
      slot.pending.delete(reply.id);
      if (reply.ok) pending.resolve(reply);
      else pending.reject(reply.name === 'ImageDecodeError' ? new ImageDecodeError(reply.message) : Object.assign(new Error(reply.message), { name: reply.name }));
    });
    const fail = (err: Error) => {
      for (const pending of slot.pending.values()) pending.reject(err);
      slot.pending.clear();
      const index = this.workers.indexOf(slot);
      if (index !== -1) this.workers.splice(index, 1);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (!this.closed) fail(new Error(`image worker exited with code ${code}`));
    });
    worker.unref();
    return slot;
  }
}
