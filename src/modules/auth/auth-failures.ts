import { createRequire } from 'node:module';
import { AppError, errors } from '../../core/errors.js';

interface StoreState {
  current: number;
  ttl: number;
}
type Callback = (err: Error | null, res: StoreState) => void;
interface Store {
  incr(key: string, cb: Callback, timeWindowMs: number, max: number): void;
  read(key: string, cb: Callback, timeWindowMs: number, max: number): void;
}
// @fastify/rate-limit's in-memory store (an LRU of fixed windows, with a non-counting `read`), used directly: the
// plugin's limiters need a Fastify instance and request, the service has neither, and a sign-in's check and its
// reservation must happen with no await in between, which this store (answering synchronously) allows.
const LocalStore = createRequire(import.meta.url)('@fastify/rate-limit/store/LocalStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  cache?: number,
) => Store;

/** Subjects counted: one per client address, one per api_key tried. */
export type FailureSubject = { address: string } | { apiKey: string };

/**
 * Failed sign-ins and bad tokens per client address and per api_key. Once a subject has failed its limit of times
 * in a window, its attempts are refused with 429 before any credential is checked, until the window passes.
 * The store is per process: scale-out nodes each count their own until a shared store lands (issue 24).
 */
export class AuthFailures {
  private readonly store = new LocalStore(false, false, 50_000);
  /** Sign-ins being checked now, per counted key: each may yet fail, so it holds one of the limit's places. */
  private readonly inFlight = new Map<string, number>();
  private readonly windowMs: number;

  constructor(private readonly options: { keyLimit: number; addressLimit: number; windowSeconds: number }) {
    this.windowMs = options.windowSeconds * 1000;
  }

  /**
   * Runs one attempt: refused while a subject is over its limit; a 401 it throws counts against every subject.
   * With `reserve` (sign-ins), attempts still being checked count too, so a burst sent in parallel cannot all pass
   * the check before the first of them fails; tokens do not reserve, as clients rightly send many in parallel.
   */
  async attempt<T>(subjects: FailureSubject[], run: () => Promise<T>, options: { reserve?: boolean } = {}): Promise<T> {
    const counted = subjects.map((s) =>
      'address' in s ? { key: `address:${s.address}`, limit: this.options.addressLimit } : { key: `key:${s.apiKey}`, limit: this.options.keyLimit },
    );
    // Checked and reserved with no await in between: the in-memory store answers synchronously.
    let wait = 0;
    for (const { key, limit } of counted) {
      const state = this.call('read', key, limit);
      const pending = options.reserve ? (this.inFlight.get(key) ?? 0) : 0;
      if (state.current + pending >= limit) wait = Math.max(wait, 1, Math.ceil(state.ttl / 1000));
    }
    if (wait > 0) throw errors.tooManyAuthFailures(wait);
    if (options.reserve) for (const { key } of counted) this.inFlight.set(key, (this.inFlight.get(key) ?? 0) + 1);
    try {
      return await run();
    } catch (err) {
      if (err instanceof AppError && err.status === 401) for (const { key, limit } of counted) this.call('incr', key, limit);
      throw err;
    } finally {
      if (options.reserve) {
        for (const { key } of counted) {
          const left = (this.inFlight.get(key) ?? 1) - 1;
          if (left > 0) this.inFlight.set(key, left);
          else this.inFlight.delete(key);
        }
      }
    }
  }

  private call(method: 'read' | 'incr', key: string, limit: number): StoreState {
    let state: StoreState | undefined;
    this.store[method](
      key,
      (err, res) => {
        if (err) throw err;
        state = res;
      },
      this.windowMs,
      limit,
    );
    if (!state) throw new Error('the failure store did not answer synchronously');
    return state;
  }
}
