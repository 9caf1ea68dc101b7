import { readFileSync, readdirSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ; 100 on Linux builds for x86 and arm). */
const TICKS_PER_SECOND = 100;

/** utime + stime of one process (with its threads), in ticks; 0 once it is gone. */
function processTicks(pid: string): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** CPU seconds used so far by every process called `postgres` that this user can see (the embedded server's). */
function postgresTicks(): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') ticks += processTicks(pid);
    } catch {
      // gone between the listing and the read
    }
  }
  return ticks;
}

/** Pids of this process's pool workers: the image and enrichment child processes (src/adapters/workers/pool-worker.ts). */
export function workerPids(): string[] {
  const pids: string[] = [];
  let all: string[] = [];
  try {
    all = readdirSync('/proc');
  } catch {
    return pids; // not Linux
  }
  for (const pid of all) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] !== String(process.pid)) continue;
      if (/-worker\.mjs/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))) pids.push(pid);
    } catch {
      // gone between the listing and the read
    }
  }
  return pids;
}

/** CPU ticks of each pool worker now. */
function workerTicks(): Map<string, number> {
  return new Map(workerPids().map((pid) => [pid, processTicks(pid)]));
}

export interface CpuUse {
  /** This process, all its threads (the server and whatever the bench runs in it). */
  self: number;
  /** The PostgreSQL processes, backends that ended during the window excluded. */
  postgres: number;
  /** The server's image and enrichment worker processes, those that ended during the window excluded. */
  workers: number;
}

/**
 * CPU seconds used between now and when the returned function is called, from /proc (Linux only; elsewhere zeros).
 * Backends that exit inside the window take their time with them, so PostgreSQL's share is a lower bound.
 */
export function cpuMeter(): () => CpuUse {
  const self = () => processTicks(String(process.pid));
  const [selfFrom, pgFrom, workersFrom] = [self(), postgresTicks(), workerTicks()];
  return () => {
    let workers = 0;
    for (const [pid, ticks] of workerTicks()) workers += ticks - (workersFrom.get(pid) ?? 0);
    return { self: (self() - selfFrom) / TICKS_PER_SECOND, postgres: Math.max(0, postgresTicks() - pgFrom) / TICKS_PER_SECOND, workers: workers / TICKS_PER_SECOND };
  };
}
