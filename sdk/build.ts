// Builds sdk/dist (JS + .d.ts for `loupe/sdk`) when its sources changed: run by `npm install` (prepare) and by the SDK tests.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const SDK_ROOT = fileURLToPath(new URL('./', import.meta.url));
const REPO_ROOT = path.dirname(SDK_ROOT.replace(/\/$/, ''));
const DIST = path.join(SDK_ROOT, 'dist');
const STAMP = path.join(DIST, 'source-hash.txt');
// tsc emits no .d.ts for a .d.ts source: the generated schema types are copied next to the types that import them.
const SCHEMA = path.join(SDK_ROOT, 'src', 'schema.d.ts');
const SCHEMA_OUT = path.join(DIST, 'sdk', 'src', 'schema.d.ts');

/** Everything the build reads: the SDK's sources and config, the server file it shares (sniffing) and the lockfile. */
function sourceHash(): string {
  const hash = createHash('sha256');
  const src = path.join(SDK_ROOT, 'src');
  const files = [
    ...fs.readdirSync(src).sort().map((name) => path.join(src, name)),
    path.join(SDK_ROOT, 'tsconfig.json'),
    path.join(REPO_ROOT, 'src', 'adapters', 'media', 'sniff.ts'),
    path.join(REPO_ROOT, 'package-lock.json'),
  ];
  for (const file of files) {
    if (!fs.existsSync(file)) continue;
    hash.update(path.relative(REPO_ROOT, file)).update('\0').update(fs.readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

/** Builds sdk/dist when its sources changed since the last build; returns whether it built. */
export async function ensureSdkBuilt(): Promise<boolean> {
  const hash = sourceHash();
  const built = fs.existsSync(STAMP) ? fs.readFileSync(STAMP, 'utf8').trim() : null;
  if (built === hash) return false;
  const tsc = path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  // An install without dev dependencies (a server image) has no compiler and needs no SDK build.
  if (!fs.existsSync(tsc)) return false;
  // Incremental: after an edit tsc checks again only what the edit touched.
  await promisify(execFile)(process.execPath, [tsc, '-p', path.join(SDK_ROOT, 'tsconfig.json'), '--incremental', '--tsBuildInfoFile', path.join(DIST, 'tsbuildinfo')], { cwd: REPO_ROOT });
  fs.copyFileSync(SCHEMA, SCHEMA_OUT);
  fs.writeFileSync(STAMP, `${hash}\n`);
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const built = await ensureSdkBuilt();
  const state = built ? `sdk built in ${Date.now() - started} ms` : fs.existsSync(STAMP) ? 'sdk up to date' : 'sdk not built (typescript is not installed)';
  process.stdout.write(`${state}\n`);
}
