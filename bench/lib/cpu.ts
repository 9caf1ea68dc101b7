import { readFileSync, readdirSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ; 100 on Linux builds for x86 and arm). */
const TICKS_PER_SECOND = 100;

/** A /proc stat file (a process's or a thread's): its command name and the fields after it (state, ppid, …); null once it is gone. */
export function readStat(file: string): { name: string; fields: string[] } | null {
  try {
    const stat = readFileSync(file, 'utf8');
    return { name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), fields: stat.slice(stat.lastIndexOf(')') + 2).split(' ') };
  } catch {
    return null;
  }
}

/** Every process id this user can see in /proc; none where there is no /proc. */
function pids(): string[] {
  try {
    return readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return []; // not Linux
  }
}

/** utime + stime of one process (with its threads), in ticks; 0 once it is gone. */
function processTicks(pid: string): number {
  const fields = readStat(`/proc/${pid}/stat`)?.fields;
  return fields ? Number(fields[11]) + Number(fields[12]) : 0;
}

/** CPU seconds used so far by every process called `postgres` that this user can see (the embedded server's). */
function postgresTicks(): number {
  return pids()
    .filter((pid) => readStat(`/proc/${pid}/stat`)?.name === 'postgres')
    .reduce((ticks, pid) => ticks + processTicks(pid), 0);
}

const isPoolWorker = new Map<string, boolean>();

/**
 * Pids of a server's pool workers (this process's by default): the image and enrichment child processes
 * (src/adapters/workers/pool-worker.ts). The event loop forks them, so the kernel lists them as its thread's children;
 * a cmdline is read once per pid. The memory sampler calls this ten times a second, and scanning every process in /proc
 * each time cost the bench's process ~6 % of a CPU (3.8 s of CPU in a 300-image run, by --cpu-prof).
 */
export function workerPids(server: number = process.pid): string[] {
  let children: string[];
  try {
    children = readFileSync(`/proc/${server}/task/${server}/children`, 'utf8').split(' ').filter(Boolean);
  } catch {
    children = pids().filter((pid) => readStat(`/proc/${pid}/stat`)?.fields[1] === String(server)); // no children file
  }
  return children.filter((pid) => {
    let known = isPoolWorker.get(pid);
    if (known === undefined) {
      try {
        known = /-worker\.mjs/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
      } catch {
        return false; // gone between the listing and the read
      }
      isPoolWorker.set(pid, known);
    }
    return known;
  });
}

/** CPU ticks of each of a server's pool workers now. */
function workerTicks(server: number): Map<string, number> {
  return new Map(workerPids(server).map((pid) => [pid, processTicks(pid)]));
}

export interface CpuUse {
  /** The server's process, all its threads (this process by default: then with whatever the bench runs in it). */
  self: number;
  /** The PostgreSQL processes, backends that ended during the window excluded. */
  postgres: number;
  /** The server's image and enrichment worker processes, those that ended during the window excluded. */
  workers: number;
}

/**
 * CPU seconds a server (this process by default), its workers and PostgreSQL use between now and when the returned
 * function is called, from /proc (Linux only; elsewhere zeros).
 * Backends that exit inside the window take their time with them, so PostgreSQL's share is a lower bound.
 */
export function cpuMeter(server: number = process.pid): () => CpuUse {
  const self = () => processTicks(String(server));
  const [selfFrom, pgFrom, workersFrom] = [self(), postgresTicks(), workerTicks(server)];
  return () => {
    let workers = 0;
    for (const [pid, ticks] of workerTicks(server)) workers += ticks - (workersFrom.get(pid) ?? 0);
    return { self: (self() - selfFrom) / TICKS_PER_SECOND, postgres: Math.max(0, postgresTicks() - pgFrom) / TICKS_PER_SECOND, workers: workers / TICKS_PER_SECOND };
  };
}
