import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** How long a fast shutdown (SIGINT) may take before the postmaster is told to quit at once (SIGQUIT), and how long that may take. */
const FAST_SHUTDOWN_MS = 20_000;
const QUIT_MS = 5_000;

/** The pid of a live postmaster for the cluster in `cluster`, or null; a pid file left by a crash is ignored. */
export function postmasterPid(cluster: string): number | null {
  let text: string;
  try {
    text = fs.readFileSync(path.join(cluster, 'postmaster.pid'), 'utf8');
  } catch {
    return null;
  }
  const pid = Number(text.split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return null;
  try {
    if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('postgres')) return null;
  } catch {
    // No /proc (macOS): trust the pid file.
  }
  return pid;
}

/** Stops the cluster's postmaster, if one runs: a fast shutdown, then an immediate one when that takes too long. */
export async function stopPostmaster(cluster: string): Promise<void> {
  const pid = postmasterPid(cluster);
  if (pid === null) return;
  process.kill(pid, 'SIGINT');
  try {
    await waitFor(() => !isAlive(pid), FAST_SHUTDOWN_MS, 'embedded PostgreSQL did not stop');
  } catch {
    process.kill(pid, 'SIGQUIT');
    await waitFor(() => !isAlive(pid), QUIT_MS, 'embedded PostgreSQL did not stop');
  }
}

/** stopPostmaster for an 'exit' listener, where nothing asynchronous runs: the same steps, waited for by blocking. */
export function stopPostmasterNow(cluster: string): void {
  const pid = postmasterPid(cluster);
  if (pid === null) return;
  // Exited, it stays a zombie (no event loop reaps it here): its pid file going is the sign it stopped.
  const gone = () => postmasterPid(cluster) === null;
  signal(pid, 'SIGINT');
  if (!blockUntil(gone, FAST_SHUTDOWN_MS)) {
    signal(pid, 'SIGQUIT');
    blockUntil(gone, QUIT_MS);
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export async function waitFor(done: () => boolean, timeoutMs: number, message: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(message);
    await sleep(50);
  }
}

/** A throw from an 'exit' listener would replace the exit code; a postmaster that just stopped needs no signal. */
function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

function blockUntil(done: () => boolean, timeoutMs: number): boolean {
  const deadline = Date.now() + timeoutMs;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  while (!done()) {
    if (Date.now() > deadline) return false;
    Atomics.wait(pause, 0, 0, 50);
  }
  return true;
}
