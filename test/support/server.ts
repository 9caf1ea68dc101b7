import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import { ImageWorkerPool } from '../../src/adapters/media/image-workers.js';
import { createEnrichmentPool } from '../../src/adapters/models/enrichment/index.js';
import { type Config, loadConfig } from '../../src/config.js';
import type { SharedPools } from '../../src/container.js';
import type { JobDefinition } from '../../src/jobs/registry.js';
import { signClientToken } from '../../src/modules/auth/auth.service.js';
import { type Loupe, startLoupe } from '../../src/server.js';
import { seedCluster } from './cluster.js';

export interface TestUser {
  user_id: string;
  email: string;
  api_key: string;
  api_secret: string;
  token: string;
}

export interface TestServer {
  url: string;
  loupe: Loupe;
  dataDir: string;
  createUser(email?: string): Promise<TestUser>;
  api(token: string | null, method: string, route: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse>;
  close(): Promise<void>;
}

export interface ApiResponse {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

let counter = 0;
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}-${Date.now()}@example.com`;
}

export function tempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-test-'));
}

/** A fresh data directory whose database is already made and migrated (see cluster.ts). */
export function seededDataDir(): string {
  const dir = tempDataDir();
  seedCluster(dir);
  return dir;
}

/**
 * The worker pools of this test process, one set per config shape: each thread loads its models on its first image
 * (seconds), and the files a test worker runs one after another (isolate: false) would each load them again. Idle
 * threads do not keep the process alive.
 */
const pools = new Map<string, SharedPools>();
function sharedPools(config: Config): SharedPools {
  const shape = `${config.media.concurrency}:${config.enrichment.threads}:${config.embeddingInputSize}`;
  let shared = pools.get(shape);
  if (!shared) {
    const { embeddingInputSize } = config;
    shared = {
      images: new ImageWorkerPool(config.media.concurrency, { embeddingInputSize }, config.backgroundNice),
      enrichment: createEnrichmentPool({ threads: config.enrichment.threads, embeddingInputSize, nice: config.backgroundNice }),
    };
    pools.set(shape, shared);
  }
  return shared;
}

/** Starts the real server (embedded PostgreSQL, worker, HTTP on a free port) in this process. */
export async function startTestServer(options: { jobs?: JobDefinition[]; env?: Record<string, string>; dataDir?: string; log?: Logger } = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? seededDataDir();
  // One image thread: each thread loads the models on its first image, which costs more than a test's few images gain.
  // Every test client is 127.0.0.1, and suites send many bad tokens on purpose: the failure limit is its own test's.
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    MEDIA_CONCURRENCY: '1',
    AUTH_FAILURE_LIMIT: '1000000',
    AUTH_FAILURE_ADDRESS_LIMIT: '1000000',
    ...options.env,
  });
  // Sweeps every second: a test waiting for one waits a second at most, and an idle server does not spend a tenth of a
  // core on them (every 300 ms, measured: 2.7 s of CPU per 20 idle seconds, node and PostgreSQL; every second: 1.0 s).
  const loupe = await startLoupe(config, {
    log: options.log,
    jobs: options.jobs,
    pools: sharedPools(config),
    workerTimings: { heartbeatMs: 500, staleAfterSeconds: 3, recoveryIntervalMs: 1_000, abortPollMs: 50, sweepIntervalMs: 1_000 },
  });
  const url = loupe.url!;
  return {
    url,
    loupe,
    dataDir,
    async createUser(email = uniqueEmail()) {
      const issued = await loupe.container.services.auth.createUser(email);
      return { ...issued, token: await signClientToken(issued.api_key, issued.api_secret, 600) };
    },
    api: (token, method, route, body, headers) => call(url, token, method, route, body, headers),
    async close() {
      await loupe.close();
      if (!options.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function call(
  baseUrl: string,
  token: string | null,
  method: string,
  route: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (token) (init.headers as Record<string, string>).authorization = `Bearer ${token}`;
  if (body instanceof FormData || body instanceof URLSearchParams) init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  const res = await fetch(`${baseUrl}${route}`, init);
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text, headers: res.headers };
}

export interface WaitOptions {
  /** How long to poll before failing, in ms (15 s unless told). */
  timeout?: number;
  /** The pause between checks, in ms (50 unless told). */
  interval?: number;
  /** What is awaited, for the timeout's message. */
  what?: string;
}

/**
 * Polls until `check` returns a value (not undefined) or the time runs out. The second argument is the options,
 * or (as older callers pass it) the timeout in ms followed by what is awaited.
 */
export async function waitFor<T>(check: () => Promise<T | undefined>, options: WaitOptions | number = {}, what?: string): Promise<T> {
  const { timeout = 15_000, interval = 50, what: label = what ?? 'condition' } = typeof options === 'number' ? { timeout: options } : options;
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}`);
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}
