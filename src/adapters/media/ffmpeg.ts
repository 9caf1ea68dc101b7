import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

const require = createRequire(import.meta.url);
const resolved = new Map<string, string>();

/** System ffmpeg when on PATH (checked once, lazily), else the binary from @ffmpeg-installer/ffmpeg. */
export function ffmpegPath(): string {
  return resolveBinary('ffmpeg', '@ffmpeg-installer/ffmpeg');
}

/** System ffprobe when on PATH (checked once, lazily), else the binary from @ffprobe-installer/ffprobe. */
export function ffprobePath(): string {
  return resolveBinary('ffprobe', '@ffprobe-installer/ffprobe');
}

function resolveBinary(name: string, npmPackage: string): string {
  let found = resolved.get(name);
  if (!found) {
    found = findOnPath(name) ?? bundledBinary(name, npmPackage);
    resolved.set(name, found);
  }
  return found;
}

function findOnPath(name: string): string | null {
  const extensions = process.platform === 'win32' ? (process.env.PATHEXT ?? '.EXE').split(';') : [''];
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    for (const extension of extensions) {
      const candidate = path.join(dir, name + extension);
      try {
        fs.accessSync(candidate, fs.constants.X_OK);
        if (fs.statSync(candidate).isFile()) return candidate;
      } catch {
        // not here; keep looking
      }
    }
  }
  return null;
}

function bundledBinary(name: string, npmPackage: string): string {
  try {
    return (require(npmPackage) as { path: string }).path;
  } catch (err) {
    // @ffmpeg-installer throws a bare string on platforms it has no binary for.
    throw new Error(`no ${name} on PATH and ${npmPackage} has none for this platform: ${err instanceof Error ? err.message : String(err)}`);
  }
}

export interface RunOptions {
  signal?: AbortSignal | undefined;
  /** Collect stdout (capped at maxStdoutBytes); otherwise it is discarded. */
  captureStdout?: boolean;
  maxStdoutBytes?: number;
  /** Sees every stderr line; return true to keep the line out of the error tail. */
  onStderrLine?: (line: string) => boolean | void;
  stderrTailLines?: number;
}

export interface RunResult {
  exitCode: number | null;
  stdout: string;
  /** The last few stderr lines not claimed by onStderrLine, for error messages. */
  stderrTail: string[];
}

/**
 * Runs a binary without a shell, streaming stderr line by line. Resolves with the exit status whatever it is;
 * rejects only when the binary cannot start, stdout overflows, or the signal aborts (with the signal's reason,
 * after the child has been killed and has exited).
 */
export function runTool(binary: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
  const { signal, captureStdout = false, maxStdoutBytes = 8 * 1024 * 1024, onStderrLine, stderrTailLines = 8 } = options;
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', captureStdout ? 'pipe' : 'ignore', 'pipe'], windowsHide: true });
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let failure: unknown = null;
    const tail: string[] = [];

    const fail = (reason: unknown) => {
      failure ??= reason;
      child.kill('SIGKILL');
    };
    const onAbort = () => fail(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout?.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > maxStdoutBytes) fail(new Error(`${path.basename(binary)} wrote more than ${maxStdoutBytes} bytes to stdout`));
      else stdout.push(chunk);
    });
    forEachLine(child.stderr, (line) => {
      if (onStderrLine?.(line) === true || line.trim() === '') return;
      tail.push(line);
      if (tail.length > stderrTailLines) tail.shift();
    });

    let settled = false;
    const settle = (exitCode: number | null) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      if (failure !== null) reject(failure);
      else resolve({ exitCode, stdout: Buffer.concat(stdout).toString('utf8'), stderrTail: tail });
    };
    child.on('error', (err) => {
      failure ??= new Error(`could not start ${binary}: ${err.message}`, { cause: err });
      // A child that never started emits no reliable 'close'.
      if (child.pid === undefined) settle(null);
    });
    child.on('close', settle);
  });
}

const MAX_LINE_CHARS = 16 * 1024;

function forEachLine(stream: Readable | null, onLine: (line: string) => void): void {
  if (!stream) return;
  const decoder = new StringDecoder('utf8');
  let pending = '';
  const take = (text: string) => {
    const parts = (pending + text).split(/\r\n|\r|\n/);
    pending = parts.pop() ?? '';
    // A line without an end would otherwise grow without bound.
    if (pending.length > MAX_LINE_CHARS) pending = pending.slice(-MAX_LINE_CHARS);
    for (const part of parts) onLine(part);
  };
  stream.on('data', (chunk: Buffer) => take(decoder.write(chunk)));
  stream.on('end', () => {
    take(decoder.end());
    if (pending) onLine(pending);
    pending = '';
  });
}
