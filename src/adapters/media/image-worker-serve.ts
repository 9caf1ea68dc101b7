import type { MessagePort } from 'node:worker_threads';
import { type ImageAnalysis, analyzeImage } from './image.js';

export interface AnalyzeRequest {
  id: number;
  filePath: string;
  format: string;
}

export type AnalyzeReply = { id: number; ok: true; result: ImageAnalysis } | { id: number; ok: false; name: string; message: string };

/** Answers analysis requests on the worker's port; buffers are moved, not copied. */
export function serve(port: MessagePort | null): void {
  if (!port) throw new Error('image worker started outside a worker thread');
  port.on('message', (request: AnalyzeRequest) => {
    analyzeImage(request.filePath, request.format).then(
      (result) => port.postMessage({ id: request.id, ok: true, result } satisfies AnalyzeReply, [result.thumbnail.buffer, result.preview.buffer] as ArrayBuffer[]),
      (err: unknown) => {
        const error = err instanceof Error ? err : new Error(String(err));
        port.postMessage({ id: request.id, ok: false, name: error.name, message: error.message } satisfies AnalyzeReply);
      },
    );
  });
}
