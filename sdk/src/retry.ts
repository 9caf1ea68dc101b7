/**
 * When a request may be sent again:
 * - 'idempotent': repeating it changes nothing (reads, PUT, PATCH, DELETE and the POST routes safe to repeat):
 *   retried on 429, 502, 503, 504 and any network error.
 * - 'unsent': the server may act on it (uploads, task starts): retried only when it cannot have acted, that is
 *   on 429 or 503 (refused before the body was read) or when the connection was never made.
 */
export type RetryMode = 'idempotent' | 'unsent';

export interface RetryOptions {
  retries: number;
  /** First backoff step; each retry doubles it up to maxDelayMs, with jitter. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  signal?: AbortSignal;
}

const RETRY_STATUSES: Record<RetryMode, ReadonlySet<number>> = {
  idempotent: new Set([429, 502, 503, 504]),
  unsent: new Set([429, 503]),
};
// Errors from connecting: the request never left this machine.
const UNSENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);
const MAX_RETRY_AFTER_MS = 5 * 60_000;

export function errorCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

function isAbort(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError');
}

export function retriableError(err: unknown, mode: RetryMode): boolean {
  if (isAbort(err)) return false;
  if (mode === 'idempotent') return err instanceof TypeError || errorCode(err) !== undefined;
  const code = errorCode(err);
  return code !== undefined && UNSENT_CODES.has(code);
}

/** Retry-After as milliseconds (seconds or an HTTP date), or null when absent or unreadable. */
export function retryAfterMs(response: Response): number | null {
  const value = response.headers.get('retry-after');
  if (!value) return null;
  const seconds = Number(value);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS) : null;
}

/** Exponential backoff with jitter: between half and all of base·2^attempt, capped. */
export function backoffMs(attempt: number, baseDelayMs = 300, maxDelayMs = 10_000): number {
  const step = Math.min(maxDelayMs, baseDelayMs * 2 ** attempt);
  return step / 2 + Math.random() * (step / 2);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export type Outcome = { response: Response } | { error: unknown };

/**
 * Runs `attempt` (which must build a fresh request each time) until it answers something final or the retries run
 * out. `first` is the outcome of a first try made elsewhere (openapi-fetch's own), which then counts as try 0.
 */
export async function withRetries(attempt: () => Promise<Response>, mode: RetryMode, options: RetryOptions, first?: Outcome): Promise<Response> {
  for (let n = 0; ; n++) {
    let response: Response;
    try {
      const outcome = n === 0 && first ? first : { response: await attempt() };
      if ('error' in outcome) throw outcome.error;
      response = outcome.response;
    } catch (err) {
      if (n >= options.retries || !retriableError(err, mode)) throw err;
      await sleep(backoffMs(n, options.baseDelayMs, options.maxDelayMs), options.signal);
      continue;
    }
    if (n >= options.retries || !RETRY_STATUSES[mode].has(response.status)) return response;
    const wait = retryAfterMs(response) ?? backoffMs(n, options.baseDelayMs, options.maxDelayMs);
    await response.body?.cancel().catch(() => {});
    await sleep(wait, options.signal);
  }
}
