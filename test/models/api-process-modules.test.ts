import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

/** The packages a fresh process holds once it has imported `module` (CommonJS ones: the runtimes here all are). */
async function packagesLoadedBy(module: string): Promise<string[]> {
  const script = `
    await import(${JSON.stringify(module)});
    const { default: Module } = await import('node:module');
    const names = new Set(Object.keys(Module._cache).filter((k) => k.includes('node_modules/')).map((k) => {
      const parts = k.split('node_modules/').pop().split('/');
      return parts[0].startsWith('@') ? parts[0] + '/' + parts[1] : parts[0];
    }));
    console.log(JSON.stringify([...names]));`;
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: 60_000 });
  return JSON.parse(stdout.trim().split('\n').pop()!) as string[];
}

describe('the API process', () => {
  // Model runtimes run in the worker processes and DuckDB in export jobs; imported by the API process for two constants
  // and one function, they held 47 MB of its heap at rest (90 -> 43 MB) and 85 MB of its RSS.
  it('loads no model runtime and no DuckDB until a job needs them', async () => {
    const loaded = await packagesLoadedBy('./src/server.ts');
    expect(loaded).toContain('fastify');
    expect(loaded.filter((p) => /^@tensorflow\/|^@vladmandic\/|^tesseract|^onnxruntime|^@duckdb\//.test(p))).toEqual([]);
  });
});
