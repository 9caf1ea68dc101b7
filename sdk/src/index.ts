// The Loupe SDK: `import { Loupe } from 'loupe/sdk'`. See docs/sdk.md.
import { Loupe } from './loupe.js';
import type { LoupeOptions } from './client.js';

export { Loupe, type AddMediaOptions, type ExportOptions } from './loupe.js';
export { type LoupeOptions, retryModeFor } from './client.js';
export type { RetryMode } from './retry.js';
export { LoupeError } from './errors.js';
export { WaitError, type WaitOptions } from './waiters.js';
export { walkMedia, collectMedia, type MediaWalk, type MediaFile } from './walk.js';
export type { UploadProgress } from './progress.js';
export type { UploadState, CreateDatasetOptions } from './uploads.js';
export type { StartExportOptions, DownloadOptions } from './exports.js';
export type { StreamEvent, NotificationStreamOptions } from './sse.js';
export { signToken } from './auth.js';
export type * from './types.js';

/** A client from LOUPE_URL, LOUPE_API_KEY and LOUPE_API_SECRET (overrides win). */
export function fromEnv(env: NodeJS.ProcessEnv = process.env, overrides: Partial<LoupeOptions> = {}): Loupe {
  const url = overrides.url ?? env.LOUPE_URL;
  if (!url) throw new Error('LOUPE_URL is not set');
  return new Loupe({ apiKey: env.LOUPE_API_KEY || undefined, apiSecret: env.LOUPE_API_SECRET || undefined, ...overrides, url });
}
