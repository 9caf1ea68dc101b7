import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const WEB_ROOT = fileURLToPath(new URL('../../../web/', import.meta.url));
export const WEB_DIST = path.join(WEB_ROOT, 'dist');
const STAMP = path.join(WEB_DIST, 'source-hash.txt');
const LOCKFILE = fileURLToPath(new URL('../../../package-lock.json', import.meta.url));

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? sourceFiles(path.join(dir, entry.name)) : [path.join(dir, entry.name)]))
    .sort();
}

/** A hash of everything the build reads: the page, its config, its sources and the installed versions (the lockfile). */
function webSourceHash(): string {
  const hash = createHash('sha256');
  const files = [path.join(WEB_ROOT, 'index.html'), path.join(WEB_ROOT, 'vite.config.ts'), ...sourceFiles(path.join(WEB_ROOT, 'src')), LOCKFILE];
  for (const file of files) {
    if (!fs.existsSync(file)) continue;
    hash.update(path.relative(WEB_ROOT, file)).update('\0').update(fs.readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

function builtHash(): string | null {
  try {
    return fs.readFileSync(STAMP, 'utf8').trim();
  } catch {
    return null;
  }
}

/** Builds web/dist when its sources changed since the last build; returns whether it built. */
export async function ensureWebBuilt(): Promise<boolean> {
  if (!fs.existsSync(path.join(WEB_ROOT, 'index.html'))) return false;
  // Hashed once, before the build: a source edited while Vite runs leaves the stamp stale, so the next start rebuilds.
  const hash = webSourceHash();
  if (builtHash() === hash) return false;
  const { build } = await import('vite');
  // Vite keeps a NODE_ENV already set (vitest sets 'test') and bundles React's development build with it, several
  // times slower to render: the app is always built for production.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: path.join(WEB_ROOT, 'vite.config.ts'), logLevel: 'warn', mode: 'production' });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  fs.writeFileSync(STAMP, `${hash}\n`);
  return true;
}
