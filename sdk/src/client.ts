import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { TokenSource } from './auth.js';
import { LoupeError, errorFromBody, errorFromResponse } from './errors.js';
import { type Outcome, type RetryMode, withRetries } from './retry.js';
import type { paths } from './schema.js';

export interface LoupeOptions {
  /** Server base URL, e.g. http://127.0.0.1:8080. */
  url: string;
  /** With apiSecret: the SDK signs its own HS256 token (kid = sub = apiKey, iss 'sdk') and signs again before expiry and once after a 401. */
  apiKey?: string;
  apiSecret?: string;
  /** Or a ready bearer token (never refreshed). */
  token?: string;
  /** Lifetime of each signed token, in seconds (default 3600). */
  tokenTtlSeconds?: number;
  /** Retries after 429, 502/503/504 and network errors (default 4); see RetryMode for which requests repeat. */
  retries?: number;
  /** First backoff step in ms (default 300); doubles per retry, with jitter, up to 10 s. Retry-After wins when sent. */
  retryBaseDelayMs?: number;
  fetch?: typeof fetch;
  userAgent?: string;
}

// POST routes that change nothing when repeated: they may be retried like reads.
const REPEATABLE_POSTS = [/\/notifications\/[^/]+\/read$/, /\/notifications\/read-all$/, /\/search-image-similarity$/, /\/export_entities_async$/, /\/media\/tags(\/remove)?$/];

// GET routes that create something (a dataset, an upload transaction, an export): not repeated once sent.
const CREATING_GETS = [/\/ingestion\/new_dataset$/, /\/ingestion\/[^/]+\/data_files$/, /\/export_context_async$/];

export function retryModeFor(method: string, path: string): RetryMode {
  if (method === 'GET') return CREATING_GETS.some((route) => route.test(path)) ? 'unsent' : 'idempotent';
  if (method !== 'POST') return 'idempotent';
  return REPEATABLE_POSTS.some((route) => route.test(path)) ? 'idempotent' : 'unsent';
}

export type Query = Record<string, string | number | boolean | string[] | undefined | null>;

export interface SendOptions {
  query?: Query;
  /** Builds the body afresh for each try (a multipart form reopens its files), so a retry never buffers one. A
   * ReadableStream body needs its content-type in `headers`, or from the factory through `onHeaders`. */
  body?: () => BodyInit | undefined | Promise<BodyInit | undefined>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  mode?: RetryMode;
  /** Send no token (a signed link, which may redirect to object storage). */
  anonymous?: boolean;
}

/** Auth, retries and errors for every request the SDK makes: the typed `api` client and the raw `send`. */
export class Transport {
  readonly api: Client<paths>;
  readonly baseUrl: string;
  readonly tokens: TokenSource;
  private readonly fetchImpl: typeof fetch;
  private readonly retries: number;
  private readonly retryBaseDelayMs: number | undefined;
  private readonly userAgent: string;

  constructor(options: LoupeOptions) {
    if (!options.url) throw new Error('url is required');
    this.baseUrl = options.url.replace(/\/+$/, '');
    this.tokens = new TokenSource(options);
    this.fetchImpl = options.fetch ?? globalThis.fetch;
    this.retries = options.retries ?? 4;
    this.retryBaseDelayMs = options.retryBaseDelayMs;
    this.userAgent = options.userAgent ?? 'loupe-sdk';
    this.api = createClient<paths>({ baseUrl: this.baseUrl, fetch: (request: Request) => this.fetchImpl(request) });
    this.api.use(this.middleware());
  }

  url(path: string, query?: Query): string {
    const url = new URL(this.baseUrl + path);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value === undefined || value === null) continue;
      if (Array.isArray(value)) for (const v of value) url.searchParams.append(key, v);
      else url.searchParams.set(key, String(value));
    }
    return url.toString();
  }

  /** One request: resolves with a 2xx response (body unread) or throws a LoupeError with the server's detail. */
  async send(method: string, path: string, options: SendOptions = {}): Promise<Response> {
    const url = /^https?:\/\//.test(path) ? path : this.url(path, options.query);
    const mode = options.mode ?? retryModeFor(method, path);
    let used: string | null = null;
    const attempt = async () => {
      // The body first: a streamed form's factory puts its boundary into options.headers.
      const body = await options.body?.();
      const headers = new Headers(options.headers);
      used = options.anonymous ? null : await this.authorize(headers);
      // A streamed body (an upload that counts its bytes) must say so to Node's fetch.
      const init: RequestInit & { duplex?: 'half' } = { method, headers, body, signal: options.signal, redirect: 'follow' };
      if (body instanceof ReadableStream) init.duplex = 'half';
      return this.fetchImpl(url, init);
    };
    const response = await this.withFreshToken(attempt, () => used, mode, options.signal);
    if (!response.ok) throw await errorFromResponse(response, method, path);
    return response;
  }

  /** `send`, then the JSON body (undefined when empty). */
  async json<T>(method: string, path: string, options: SendOptions & { json?: unknown } = {}): Promise<T> {
    const { json, ...rest } = options;
    const response = await this.send(method, path, {
      ...rest,
      ...(json === undefined ? {} : { body: () => JSON.stringify(json), headers: { 'content-type': 'application/json', ...rest.headers } }),
    });
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /**
   * withRetries, then once more with a newly signed token when the one used was refused: a 401 comes before anything
   * was done, so sending again is safe for every route.
   */
  private async withFreshToken(attempt: () => Promise<Response>, used: () => string | null, mode: RetryMode, signal?: AbortSignal, first?: Outcome): Promise<Response> {
    const retry = { retries: this.retries, baseDelayMs: this.retryBaseDelayMs, signal };
    const response = await withRetries(attempt, mode, retry, first);
    const token = used();
    if (response.status !== 401 || token === null || !this.tokens.canRefresh) return response;
    await response.body?.cancel().catch(() => {});
    this.tokens.invalidate(token);
    return withRetries(attempt, mode, retry);
  }

  private async authorize(headers: Headers): Promise<string | null> {
    const token = await this.tokens.token();
    if (token) headers.set('authorization', `Bearer ${token}`);
    if (!headers.has('user-agent')) headers.set('user-agent', this.userAgent);
    return token;
  }

  /** openapi-fetch middleware: signs each request, and on a 401 or a retriable failure sends a kept copy again. */
  private middleware(): Middleware {
    const copies = new Map<string, { copy: Request | null; token: string | null }>();
    const recover = async (id: string, first: Outcome): Promise<Response | undefined> => {
      const kept = copies.get(id);
      copies.delete(id);
      if (!kept?.copy) return undefined;
      const { copy } = kept;
      const path = new URL(copy.url).pathname;
      let used = kept.token;
      const attempt = async () => {
        const request = copy.clone();
        used = await this.authorize(request.headers);
        return this.fetchImpl(request);
      };
      return this.withFreshToken(attempt, () => used, retryModeFor(copy.method, path), copy.signal, first);
    };
    return {
      onRequest: async ({ request, id }) => {
        const token = await this.authorize(request.headers);
        // Bodies are kept for a second try only when small (JSON or none): a streamed upload is never buffered.
        const type = request.headers.get('content-type') ?? '';
        const replayable = request.body === null || type.startsWith('application/json');
        copies.set(id, { copy: replayable ? request.clone() : null, token });
        return request;
      },
      onResponse: async ({ response, id }) => {
        if (response.ok) {
          copies.delete(id);
          return undefined;
        }
        return recover(id, { response });
      },
      onError: async ({ error, id }) => {
        const response = await recover(id, { error });
        return response ?? (error instanceof Error ? error : new Error(String(error)));
      },
    };
  }
}

/** The data of an openapi-fetch answer, or its error as a LoupeError with the server's detail. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>, method = 'GET'): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw errorFromBody(response, method, new URL(response.url || 'http://localhost/').pathname, error);
  return data as T;
}

export { LoupeError };
