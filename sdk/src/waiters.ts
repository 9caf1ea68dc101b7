import { LoupeError } from './errors.js';
import { sleep } from './retry.js';

export interface WaitOptions {
  /** States that end the wait successfully. */
  until?: string[];
  /** States that end it with a WaitError. */
  failOn?: string[];
  /** Give up after this long (no limit unless set). */
  timeoutMs?: number;
  /** Pause between reads; never under 1000 ms. */
  intervalMs?: number;
  signal?: AbortSignal;
  /** Called with every value read, the first included. */
  onProgress?: (value: any) => void;
}

/** A wait that ended in a failure state (or ran out of time): `detail` is the server's own message for it. */
export class WaitError extends LoupeError {
  override readonly name: string = 'WaitError';
  constructor(
    detail: string,
    path: string,
    /** The state the thing ended in ('ERROR', 'FAILED', …), or 'TIMEOUT'. */
    readonly state: string,
    readonly value: unknown,
  ) {
    super(0, detail, 'GET', path);
  }
}

export const MIN_INTERVAL_MS = 1000;

export interface Watched<T> {
  path: string;
  read: () => Promise<T>;
  state: (value: T) => string;
  /** The server's words for a failure, e.g. the dataset's fatal_error_msg. */
  detail: (value: T) => string | null | undefined;
  until: string[];
  failOn: string[];
}

/** Reads `read` until its state is in `until` (resolves) or `failOn` (throws WaitError), no faster than once a second. */
export async function waitUntil<T>(watched: Watched<T>, options: WaitOptions = {}): Promise<T> {
  const until = options.until ?? watched.until;
  const failOn = options.failOn ?? watched.failOn;
  const interval = Math.max(MIN_INTERVAL_MS, options.intervalMs ?? MIN_INTERVAL_MS);
  const deadline = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
  for (;;) {
    options.signal?.throwIfAborted();
    const value = await watched.read();
    options.onProgress?.(value);
    const state = watched.state(value);
    if (until.includes(state)) return value;
    if (failOn.includes(state)) throw new WaitError(watched.detail(value) || `${watched.path} is ${state}`, watched.path, state, value);
    if (Date.now() + interval > deadline) {
      throw new WaitError(`timed out after ${options.timeoutMs} ms waiting for ${watched.path} to be ${until.join(' or ')} (it is ${state})`, watched.path, 'TIMEOUT', value);
    }
    await sleep(interval, options.signal);
  }
}

/** `wait: true | WaitOptions` as the options of a waiter, or null when no wait was asked for. */
export function waitOptionsOf(wait: boolean | WaitOptions | undefined): WaitOptions | null {
  if (!wait) return null;
  return wait === true ? {} : wait;
}
