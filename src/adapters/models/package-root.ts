import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** Root folder of an installed package (found by walking up from its resolved entry point). */
export function packageRoot(name: string): string {
  let dir = path.dirname(require.resolve(name));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) {
      const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string };
      if (parsed.name === name) return dir;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cannot locate the root of package ${name}`);
    dir = parent;
  }
}
