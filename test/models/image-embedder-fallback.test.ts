import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

// A platform without onnxruntime-node's binary, in a process of its own: a module hook hands the package's import a
// module that throws when evaluated, as its failed dlopen does. (vi.mock with a throwing factory was not the same on
// every machine: on CI the first import resolved and the second threw.)
const HOOK = `
export async function resolve(specifier, context, next) {
  if (specifier === 'onnxruntime-node') {
    return { url: 'data:text/javascript,throw new Error("libonnxruntime.so.1: cannot open shared object file")', shortCircuit: true };
  }
  return next(specifier, context);
}`;

const SCRIPT = `
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(HOOK)}));
const warnings = [];
process.on('warning', (w) => warnings.push(w.message));
const { loadImageEmbedder } = await import('./src/adapters/models/image-embedder.ts');
const embedder = await loadImageEmbedder(256);
const vector = await embedder.embed({ data: new Uint8Array(256 * 256 * 3).fill(128), width: 256, height: 256 });
await embedder.close();
await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
console.log(JSON.stringify({ runtime: embedder.runtime, identity: embedder.name + '@' + embedder.version, length: vector.length, warnings }));`;

describe('the image embedder where ONNX Runtime cannot load', () => {
  it('embeds on tfjs-wasm under the same identity, with one process warning', { timeout: 60_000 }, async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], { timeout: 60_000 });
    const result = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(result).toEqual({
      runtime: 'tfjs-wasm',
      identity: 'centernet-mbv3-gap@human-3/centernet@256/v1',
      length: 480,
      warnings: ['onnxruntime-node cannot load here (libonnxruntime.so.1: cannot open shared object file); embedding on tfjs-wasm'],
    });
  });
});
