import { loadImageEmbedder } from '../models/image-embedder.js';
import type { Embedder } from '../models/embedder.js';
import { type CropBox, type ImageAnalysis, type MediaEmbedding, analyzeImage, embedImageFile } from './image.js';
import type { WorkerPort } from '../workers/worker-port.js';

export interface ImageWorkerOptions {
  /** Side of the embedder's input; null runs no embedder (analysis then carries no embedding). */
  embeddingInputSize: number | null;
}

export type ImageWorkerRequest =
  | { id: number; op: 'analyze'; filePath: string; format: string }
  | { id: number; op: 'embed'; filePath: string; format: string; crop: CropBox | null };

export type ImageWorkerReply =
  | { id: number; ok: true; op: 'analyze'; result: ImageAnalysis }
  | { id: number; ok: true; op: 'embed'; result: MediaEmbedding }
  | { id: number; ok: false; name: string; message: string };

let embedder: Promise<Embedder> | undefined;

/** The model loads on the first request that needs it, once per worker. */
function theEmbedder(options: ImageWorkerOptions): Promise<Embedder> | undefined {
  if (options.embeddingInputSize === null) return undefined;
  embedder ??= loadImageEmbedder(options.embeddingInputSize).catch((err: unknown) => {
    embedder = undefined;
    throw err;
  });
  return embedder;
}

async function handle(request: ImageWorkerRequest, options: ImageWorkerOptions): Promise<ImageWorkerReply> {
  const model = await theEmbedder(options);
  if (request.op === 'analyze') {
    return { id: request.id, ok: true, op: 'analyze', result: await analyzeImage(request.filePath, request.format, undefined, model) };
  }
  if (!model) throw new Error('no embedder is configured');
  return { id: request.id, ok: true, op: 'embed', result: await embedImageFile(request.filePath, request.format, model, request.crop ?? undefined) };
}

function transferables(reply: ImageWorkerReply): ArrayBuffer[] {
  if (!reply.ok) return [];
  if (reply.op === 'embed') return [reply.result.vector.buffer as ArrayBuffer];
  const buffers = [reply.result.thumbnail.buffer] as ArrayBuffer[];
  if (reply.result.preview) buffers.push(reply.result.preview.buffer as ArrayBuffer);
  if (reply.result.embedding) buffers.push(reply.result.embedding.vector.buffer as ArrayBuffer);
  return buffers;
}

/** Answers requests on the worker's port; buffers are moved where the port can, not copied. */
export function serve({ port, data }: { port: WorkerPort; data: ImageWorkerOptions | null }): void {
  const options = data ?? { embeddingInputSize: null };
  port.onMessage((request: ImageWorkerRequest) => {
    handle(request, options).then(
      (reply) => port.post(reply, transferables(reply)),
      (err: unknown) => {
        const error = err instanceof Error ? err : new Error(String(err));
        port.post({ id: request.id, ok: false, name: error.name, message: error.message } satisfies ImageWorkerReply);
      },
    );
  });
}
