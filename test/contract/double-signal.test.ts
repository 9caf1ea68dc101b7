import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { startMain } from '../support/main-process.js';
import { seededDataDir } from '../support/server.js';

const dataDirs: string[] = [];
afterAll(() => {
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** Whether the process runs (an exited one left unreaped, state Z, does not). */
function isAlive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** The pid in the cluster's postmaster.pid, or null when there is none. */
function postmasterPid(dataDir: string): number | null {
  try {
    return Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return null;
  }
}

describe('a second stop signal', () => {
  it.each([
    ['SIGTERM', 'SIGTERM'],
    ['SIGINT', 'SIGTERM'],
  ] as const)('%s then %s: the process exits and its embedded PostgreSQL is stopped', async (first, second) => {
    const dataDir = seededDataDir();
    dataDirs.push(dataDir);
    const { proc, exited, logs } = await startMain(dataDir);
    const pgPid = postmasterPid(dataDir);
    expect(pgPid !== null && isAlive(pgPid)).toBe(true);

    proc.kill(first);
    await sleep(20);
    proc.kill(second);
    expect(await exited).toBe(1);

    expect(logs.join('')).toContain('second signal: exiting now');
    expect(isAlive(pgPid!)).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'loupe.lock'))).toBe(false);
  }, 60_000);
});
