import { CommanderError } from 'commander';
import { LoupeError } from '../../sdk/src/index.js';
import { ConfigFileError } from './config.js';

export const EXIT = { ok: 0, failure: 1, usage: 2, notFound: 3, conflict: 4, interrupted: 130 } as const;

/** Wrong use of the command line that commander cannot see (two sources at once, a missing --yes). */
export class UsageError extends Error {}

/** Refused because of a state on disk or in the database (a non-empty DATA_DIR for a restore); nothing was changed. */
export class ConflictError extends Error {}

/** Ctrl-C (or SIGTERM) during an operation; the message says how to go on. */
export class InterruptedError extends Error {}

export function exitCodeFor(err: unknown): number {
  if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
  if (err instanceof UsageError) return EXIT.usage;
  if (err instanceof InterruptedError) return EXIT.interrupted;
  if (err instanceof ConflictError) return EXIT.conflict;
  if (err instanceof LoupeError) {
    if (err.status === 404) return EXIT.notFound;
    if (err.status === 409) return EXIT.conflict;
  }
  return EXIT.failure;
}

/** The line for stderr: the server's detail verbatim, or what went wrong on the way to it. */
export function errorMessage(err: unknown, url?: string): string {
  if (err instanceof LoupeError) return err.detail || err.message;
  if (err instanceof UsageError || err instanceof InterruptedError || err instanceof ConfigFileError) return err.message;
  if (err instanceof Error) {
    const cause = (err as Error & { cause?: { code?: string; message?: string } }).cause;
    // fetch's own message is "fetch failed"; the cause says which (ECONNREFUSED, ENOTFOUND, …).
    if (err.message === 'fetch failed' && cause) return `Cannot reach ${url ?? 'the server'}: ${cause.message || cause.code}`;
    return err.message;
  }
  return String(err);
}
