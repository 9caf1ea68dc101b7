import path from 'node:path';
import { type S3BlobLocation, parseBlobUrl } from './adapters/blobs/s3-blob-store.js';
import { defaultSharedBuffersMb } from './adapters/db/embedded-postgres.js';

export type Role = 'api' | 'worker' | 'all';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
export type AuthMode = 'token' | 'none';

export interface Config {
  role: Role;
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  /** The embedded database's shared_buffers, MB (not used with DATABASE_URL). */
  dbSharedBuffersMb: number;
  logLevel: LogLevel;
  publicUrl: string | null;
  /** `none`: single-user local mode, requests without credentials act as one local user (loopback HOST only). */
  authMode: AuthMode;
  /** 32-byte key that encrypts API secrets at rest; null means "kept in DATA_DIR". */
  secretKey: Buffer | null;
  tokenMaxLifetimeSeconds: number;
  sessionLifetimeSeconds: number;
  /** Failed sign-ins or bad tokens allowed per api_key in each window before 429. */
  authFailureLimit: number;
  /** The same per client address: higher, as users behind one NAT share it. */
  authFailureAddressLimit: number;
  authFailureWindowSeconds: number;
  workerConcurrency: number;
  upload: { maxFileBytes: number; maxRequestBytes: number; maxFilesPerRequest: number };
  media: {
    concurrency: number;
    videoMaxFrames: number;
    videoFrameIntervalSeconds: number;
    sceneThreshold: number;
  };
  /** Chunked stages (media, enrichment): items per chunk any worker may take, and how long a silent claim lives. */
  chunks: { items: number; staleSeconds: number };
  blobGcGraceSeconds: number;
  /** New datasets get snapshot support (older datasets of the hosted service had none). */
  snapshotsEnabled: boolean;
  /** A version that stopped being a head is kept this long for readers still on it, then swept if unreferenced. */
  versionGcGraceSeconds: number;
  /** Soft-deleted snapshots keep their data this long before the sweep purges them. */
  snapshotPurgeAfterSeconds: number;
  /** How often the worker looks for media batches whose alerts were not evaluated (their NOTIFY missed). */
  alertSweepSeconds: number;
  /** A tag or label at least this many media of a dataset carry gets facet summaries: Explore filtered by it reads a page of them. */
  facetSummaryFloor: number;
  /** A change whose version would own more rows than this, and at least half its base's, is written whole (FULL_SET_FLOOR). */
  fullSetFloor: number;
  export: { maxItems: number; ttlSeconds: number; linkSeconds: number };
  /** Largest custom metadata file an import accepts. */
  customMetadataMaxBytes: number;
  /** Side of the square input the image embedder runs at (a multiple of 32). */
  embeddingInputSize: number;
  /** Native threads for building the neighbour graph. */
  indexThreads: number;
  /** Nice value of the image and enrichment worker processes: background work yields the CPU to API requests. */
  backgroundNice: number;
  addMedia: { enabled: boolean; localRoots: string[] };
  enrichment: {
    /** Worker threads running the built-in vision models. */
    threads: number;
    /** An OpenAI-compatible vision endpoint that adds a CAPTION_IMAGES model; null when not configured. */
    openai: { baseUrl: string; model: string; apiKey: string | null; timeoutMs: number; retries: number; concurrency: number } | null;
  };
  /**
   * Where blobs live: `s3` (BLOB_URL=s3://bucket/prefix, read with the AWS_* settings) or null for DATA_DIR/blobs.
   * `proxy`: downloads pass the bytes through the API instead of redirecting to a presigned URL.
   */
  blobs: { s3: S3BlobLocation | null; proxy: boolean };
  /** The AWS_* settings object-storage sources read (region, endpoint, credentials); never logged. */
  objectStorageEnv: NodeJS.ProcessEnv;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

const GiB = 1024 ** 3;
const ROLES: readonly Role[] = ['api', 'worker', 'all'];
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const AUTH_MODES: readonly AuthMode[] = ['token', 'none'];
const LOOPBACK_HOSTS = ['127.0.0.1', '::1', 'localhost'];

/** Reads every setting at once and reports every bad value together. */
export function loadConfig(env: NodeJS.ProcessEnv, overrides: { role?: string } = {}): Config {
  const problems: string[] = [];
  const value = (name: string) => {
    const raw = env[name]?.trim();
    return raw === undefined || raw === '' ? undefined : raw;
  };

  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = value(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return n;
  };

  const oneOf = <T extends string>(name: string, raw: string | undefined, allowed: readonly T[], fallback: T): T => {
    if (raw === undefined) return fallback;
    if (!(allowed as readonly string[]).includes(raw)) {
      problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
      return fallback;
    }
    return raw as T;
  };

  const url = (name: string, protocols: string[]): string | null => {
    const raw = value(name);
    if (raw === undefined) return null;
    try {
      const parsed = new URL(raw);
      if (!protocols.includes(parsed.protocol)) {
        problems.push(`${name} must use ${protocols.join(' or ')} (got "${parsed.protocol}")`);
      }
      return raw.replace(/\/+$/, '');
    } catch {
      problems.push(`${name} is not a valid URL`);
      return null;
    }
  };

  const flag = (name: string, fallback: boolean): boolean => {
    const raw = value(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (['true', '1', 'yes', 'on'].includes(raw)) return true;
    if (['false', '0', 'no', 'off'].includes(raw)) return false;
    problems.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  };

  /** Absolute folders separated by the platform's path delimiter (":" here), normalised. */
  const roots = (name: string): string[] => {
    const raw = value(name);
    if (raw === undefined) return [];
    const list = raw.split(path.delimiter).map((r) => r.trim()).filter(Boolean);
    for (const r of list) if (!path.isAbsolute(r)) problems.push(`${name} must list absolute folders (got "${r}")`);
    return list.map((r) => path.resolve(r));
  };

  const secretKey = (): Buffer | null => {
    const raw = value('LOUPE_SECRET_KEY');
    if (raw === undefined) return null;
    const key = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
    if (key.length !== 32) {
      problems.push('LOUPE_SECRET_KEY must be 32 bytes, as 64 hex characters or base64');
      return null;
    }
    return key;
  };

  const blobUrl = (): S3BlobLocation | null => {
    const raw = value('BLOB_URL');
    if (raw === undefined) return null;
    const location = parseBlobUrl(raw);
    if (!location) problems.push(`BLOB_URL must be s3://bucket or s3://bucket/prefix (letters, digits, . _ - / in the prefix); got "${raw}"`);
    return location;
  };

  const openaiEndpoint = (): Config['enrichment']['openai'] => {
    const baseUrl = url('ENRICH_OPENAI_BASE_URL', ['http:', 'https:']);
    const model = value('ENRICH_OPENAI_MODEL');
    if (baseUrl && !model) problems.push('ENRICH_OPENAI_MODEL must name the model when ENRICH_OPENAI_BASE_URL is set');
    if (!baseUrl || !model) return null;
    return {
      baseUrl,
      model,
      apiKey: value('ENRICH_OPENAI_API_KEY') ?? null,
      timeoutMs: integer('ENRICH_OPENAI_TIMEOUT_SECONDS', 60, 1, 3600) * 1000,
      retries: integer('ENRICH_OPENAI_RETRIES', 2, 0, 10),
      concurrency: integer('ENRICH_OPENAI_CONCURRENCY', 4, 1, 256),
    };
  };

  const config: Config = {
    role: oneOf('--role', overrides.role ?? value('LOUPE_ROLE'), ROLES, 'all'),
    port: integer('PORT', 8080, 0, 65535),
    host: value('HOST') ?? '127.0.0.1',
    dataDir: path.resolve(value('DATA_DIR') ?? './data'),
    databaseUrl: url('DATABASE_URL', ['postgres:', 'postgresql:']),
    dbSharedBuffersMb: integer('DB_SHARED_BUFFERS_MB', defaultSharedBuffersMb(), 16, 1_048_576),
    logLevel: oneOf('LOG_LEVEL', value('LOG_LEVEL'), LOG_LEVELS, 'info'),
    publicUrl: url('PUBLIC_URL', ['http:', 'https:']),
    authMode: oneOf('LOUPE_AUTH', value('LOUPE_AUTH')?.toLowerCase(), AUTH_MODES, 'token'),
    secretKey: secretKey(),
    tokenMaxLifetimeSeconds: integer('TOKEN_MAX_LIFETIME_SECONDS', 86_400, 60, 31_536_000),
    sessionLifetimeSeconds: integer('SESSION_LIFETIME_SECONDS', 604_800, 60, 31_536_000),
    authFailureLimit: integer('AUTH_FAILURE_LIMIT', 20, 1, 1_000_000),
    authFailureAddressLimit: integer('AUTH_FAILURE_ADDRESS_LIMIT', 100, 1, 1_000_000),
    authFailureWindowSeconds: integer('AUTH_FAILURE_WINDOW_SECONDS', 60, 1, 86_400),
    workerConcurrency: integer('WORKER_CONCURRENCY', 2, 1, 64),
    upload: {
      maxFileBytes: integer('MAX_FILE_BYTES', 2 * GiB, 1, Number.MAX_SAFE_INTEGER),
      maxRequestBytes: integer('MAX_REQUEST_BYTES', 8 * GiB, 1, Number.MAX_SAFE_INTEGER),
      maxFilesPerRequest: integer('MAX_FILES_PER_REQUEST', 500, 1, 100_000),
    },
    media: {
      concurrency: integer('MEDIA_CONCURRENCY', 3, 1, 64),
      videoMaxFrames: integer('VIDEO_MAX_FRAMES', 30, 1, 10_000),
      videoFrameIntervalSeconds: integer('VIDEO_FRAME_INTERVAL_SECONDS', 1, 1, 3600),
      sceneThreshold: 0.3,
    },
    chunks: { items: integer('TASK_CHUNK_ITEMS', 200, 1, 100_000), staleSeconds: integer('TASK_CHUNK_STALE_SECONDS', 30, 1, 3600) },
    blobGcGraceSeconds: integer('BLOB_GC_GRACE_SECONDS', 3600, 0, 31_536_000),
    snapshotsEnabled: flag('SNAPSHOTS_ENABLED', true),
    versionGcGraceSeconds: integer('VERSION_GC_GRACE_SECONDS', 600, 0, 31_536_000),
    snapshotPurgeAfterSeconds: integer('SNAPSHOT_PURGE_AFTER_SECONDS', 30 * 86_400, 0, 10 * 31_536_000),
    alertSweepSeconds: integer('ALERT_SWEEP_INTERVAL_SECONDS', 30, 1, 86_400),
    facetSummaryFloor: integer('FACET_SUMMARY_MIN_MEDIA', 10_000, 1, 1_000_000_000),
    fullSetFloor: integer('VERSION_FULL_SET_FLOOR', 50_000, 1, 1_000_000_000),
    export: {
      maxItems: integer('EXPORT_MAX_ITEMS', 1_000_000, 1, 1_000_000_000),
      ttlSeconds: integer('EXPORT_TTL_SECONDS', 7 * 86_400, 0, 31_536_000),
      linkSeconds: integer('EXPORT_LINK_SECONDS', 3600, 60, 7 * 86_400),
    },
    customMetadataMaxBytes: integer('CUSTOM_METADATA_MAX_BYTES', GiB, 1, Number.MAX_SAFE_INTEGER),
    embeddingInputSize: integer('EMBEDDING_INPUT_SIZE', 256, 64, 1024),
    indexThreads: integer('INDEX_THREADS', 2, 1, 64),
    backgroundNice: integer('BACKGROUND_NICE', 10, 0, 19),
    addMedia: { enabled: flag('ADD_MEDIA_ENABLED', true), localRoots: roots('LOCAL_MEDIA_ROOTS') },
    enrichment: { threads: integer('ENRICH_THREADS', 2, 1, 64), openai: openaiEndpoint() },
    blobs: { s3: blobUrl(), proxy: flag('BLOB_PROXY', false) },
    objectStorageEnv: Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith('AWS_'))),
  };
  // Without credentials anyone who reaches the port is the local user, so only this machine may reach it.
  if (config.authMode === 'none' && !LOOPBACK_HOSTS.includes(config.host.toLowerCase())) {
    problems.push(`LOUPE_AUTH=none needs HOST to be a loopback address (${LOOPBACK_HOSTS.join(', ')}); HOST is "${config.host}"`);
  }
  if (config.embeddingInputSize % 32 !== 0) problems.push(`EMBEDDING_INPUT_SIZE must be a multiple of 32, got ${config.embeddingInputSize}`);

  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
