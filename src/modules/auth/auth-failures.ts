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
// @fastify/rate-limit's in-memory store (an LRU of fixed windows, with a non-counting `read`); its plugin hooks
// count every request, and only failures may count here, so this uses the store directly.
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
  private readonly windowMs: number;

  constructor(private readonly options: { keyLimit: number; addressLimit: number; windowSeconds: number }) {
    this.windowMs = options.windowSeconds * 1000;
  }

  /** Runs one attempt: refused while a subject is over its limit; a 401 it throws counts against every subject. */
  async attempt<T>(subjects: FailureSubject[], run: () => Promise<T>): Promise<T> {
    const counted = subjects.map((s) =>
      'address' in s ? { key: `address:${s.address}`, limit: this.options.addressLimit } : { key: `key:${s.apiKey}`, limit: this.options.keyLimit },
    );
    let wait = 0;
    for (const { key, limit } of counted) {
      const state = await this.call('read', key, limit);
      if (state.current >= limit) wait = Math.max(wait, 1, Math.ceil(state.ttl / 1000));
    }
    if (wait > 0) throw errors.tooManyAuthFailures(wait);
    try {
      return await run();
    } catch (err) {
      if (err instanceof AppError && err.status === 401) for (const { key, limit } of counted) await this.call('incr', key, limit);
      throw err;
    }
  }

  private call(method: 'read' | 'incr', key: string, limit: number): Promise<StoreState> {
    return new Promise((resolve, reject) => {
      this.store[method](key, (err, res) => (err ? reject(err) : resolve(res)), this.windowMs, limit);
    });
  }
}
