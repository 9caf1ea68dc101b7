import { spawnSync } from 'node:child_process';
import { readdirSync, readlinkSync } from 'node:fs';
import os from 'node:os';
import { WORKER_NICE_ENV } from './pool-worker.js';

/** This process's threads, by id (Linux); [0] elsewhere, which the priority calls read as the whole process. */
function threadIds(): number[] {
  try {
    return readdirSync('/proc/self/task').map(Number);
  } catch {
    return [0];
  }
}

/** The calling thread's id (Linux), or null. */
function ownThreadId(): number | null {
  try {
    return Number(readlinkSync('/proc/thread-self').split('/').pop());
  } catch {
    return null;
  }
}

function lower(tid: number, nice: number): void {
  try {
    if (os.getPriority(tid) < nice) os.setPriority(tid, nice);
  } catch {
    // the thread ended between the listing and the call
  }
}

/**
 * Raises the nice value of every thread of this process to at least `nice` (Linux's setpriority applies to one
 * thread; threads started later inherit it from the one that starts them). Lowering a priority needs no privilege.
 */
export function lowerPriority(nice: number): void {
  for (const tid of threadIds()) lower(tid, nice);
}

/**
 * Raises the nice value of the calling thread alone to at least `nice` (a worker thread: index builds), so the threads
 * it starts later (usearch's, a neighbour graph's crew) inherit it; by default the value runOnThread passed. Linux only;
 * elsewhere the thread keeps its priority.
 */
export function lowerThreadPriority(nice = Number(process.env[WORKER_NICE_ENV] ?? 0)): void {
  const tid = ownThreadId();
  if (nice > 0 && tid !== null) lower(tid, nice);
}

/**
 * Lowers every other thread of this process to `nice`: in the API's process, libuv's pool (file writes of uploads) and
 * V8's helpers (concurrent marking) otherwise preempt the event loop as peers, each wakeup of theirs able to put a
 * read behind them (perf sched under 20 uploaders: the event loop runnable but off the CPU 36 % of the time).
 * Only for a process of its own: the calling thread is the event loop. Threads started later take their creator's.
 */
export function lowerOtherThreads(nice: number): void {
  const own = ownThreadId();
  if (nice <= 0 || own === null) return;
  for (const tid of threadIds()) if (tid !== own) lower(tid, nice);
}

/**
 * Moves every thread of this process to SCHED_IDLE: they run only on a CPU no other thread wants and never preempt
 * one, whatever their number (nice weighs each thread apart, so a dozen decoder threads at nice 10 still weigh as much
 * as the event loop). Node has no call for it; util-linux's chrt makes it, and where chrt is missing nice alone stays.
 * Threads started later inherit it.
 */
export function runWhenIdle(): void {
  spawnSync('chrt', ['--idle', '--all-tasks', '--pid', '0', String(process.pid)], { stdio: 'ignore', timeout: 10_000 });
}
