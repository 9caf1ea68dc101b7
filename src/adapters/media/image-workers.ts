import { ThreadPool } from '../workers/thread-pool.js';
import { type CropBox, type ImageAnalysis, ImageDecodeError, type MediaEmbedding } from './image.js';
import type { ImageWorkerOptions, ImageWorkerReply, ImageWorkerRequest } from './image-worker-serve.js';

type Request = ImageWorkerRequest extends infer R ? (R extends ImageWorkerRequest ? Omit<R, 'id'> : never) : never;

/**
 * Image analysis off the API's event loop: HEIC (wasm), BMP, the perceptual hash, the quality measures and the
 * embedding are JavaScript and would block it. Given `nice`, the workers are child processes at that priority, so
 * their decoding (libuv's and libvips' threads) and model runs yield the CPU to API requests.
 */
export class ImageWorkerPool {
  private readonly pool: ThreadPool<Extract<ImageWorkerReply, { ok: true }>>;

  constructor(size: number, options: ImageWorkerOptions = { embeddingInputSize: null }, nice?: number) {
    this.pool = new ThreadPool({
      ...(nice === undefined ? {} : { nice }),
      script: new URL('./image-worker.mjs', import.meta.url),
      workerData: options,
      size,
      name: 'image worker',
      toError: (reply) => (reply.name === 'ImageDecodeError' ? new ImageDecodeError(reply.message) : Object.assign(new Error(reply.message), { name: reply.name })),
    });
  }

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

  private request(request: Request, signal?: AbortSignal) {
    return this.pool.request((id) => ({ id, ...request }) as ImageWorkerRequest, signal);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
