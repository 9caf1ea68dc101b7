import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Embedder } from '../../src/adapters/models/embedder.js';

// A platform without onnxruntime-node's binary: importing the package throws, as a failed dlopen does.
vi.mock('onnxruntime-node', () => {
  throw new Error('libonnxruntime.so.1: cannot open shared object file');
});

describe('the image embedder where ONNX Runtime cannot load', () => {
  let embedder: Embedder | undefined;
  afterAll(() => embedder?.close());

  it('embeds on tfjs-wasm under the same identity, with one process warning', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    try {
      const { loadImageEmbedder } = await import('../../src/adapters/models/image-embedder.js');
      embedder = await loadImageEmbedder(256);
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
      expect(embedder.runtime).toBe('tfjs-wasm');
      expect(`${embedder.name}@${embedder.version}`).toBe('centernet-mbv3-gap@human-3/centernet@256/v1');
      const vector = await embedder.embed({ data: new Uint8Array(256 * 256 * 3).fill(128), width: 256, height: 256 });
      expect(vector.length).toBe(480);
      // The reason is the import's error's first line (vitest wraps a failing mock factory in one of its own).
      expect(warnings.filter((w) => w.startsWith('onnxruntime-node cannot load here (') && w.endsWith('); embedding on tfjs-wasm'))).toHaveLength(1);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
