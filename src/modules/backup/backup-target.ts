import fs from 'node:fs/promises';
import path from 'node:path';

/** Backing up into, or restoring onto, a folder that already holds something: refused, nothing touched. */
export class TargetNotEmptyError extends Error {
  override name = 'TargetNotEmptyError';
}

/** What a backup or restore reports as it goes: the phase, how far, and of how much (null: not known yet). */
export interface BackupProgress {
  phase: 'database' | 'blobs';
  done: number;
  total: number | null;
  detail: string;
}

/** True when `dir` is missing or empty (then made); false when it holds anything. */
export async function claimEmptyDir(dir: string): Promise<boolean> {
  const entries = await fs.readdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw err;
  });
  if (entries && entries.length > 0) return false;
  await fs.mkdir(dir, { recursive: true });
  return true;
}

/** Removes what a failed backup or restore wrote into a folder that was empty when it began. */
export async function emptyDir(dir: string): Promise<void> {
  for (const entry of await fs.readdir(dir).catch(() => [] as string[])) await fs.rm(path.join(dir, entry), { recursive: true, force: true });
}

export const loupeVersion = async (): Promise<string> =>
  (JSON.parse(await fs.readFile(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
