import { Transform, type TransformCallback } from 'node:stream';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** Upload bodies wait while reads are answered (read-priority.ts). */
    readPriority: ReadPriority;
  }
}

/** Longest a read keeps uploads waiting: a stream (a download, an event stream) counts as answered by then. */
const MAX_HOLD_MS = 250;
/**
 * Longest one chunk of an upload (or one request) waits for reads. A wait that runs out opens the gate for as long
 * again, so under a steady stream of reads (a grid of thumbnails scrolling) uploads keep at least half their pace.
 */
const MAX_WAIT_MS = 100;

/**
 * Reads first: while a read request (GET or HEAD outside ingestion) is being answered, other requests wait to start
 * and the chunks of upload bodies wait to pass, so TCP holds the uploaders back. Twenty uploaders keep the one event
 * loop busy on two cores; without this a read queued behind their chunks, file writes and inserts (issue 28 item 10).
 */
export class ReadPriority {
  private reading = 0;
  private waiters: Array<() => void> = [];
  /** performance.now() until which work passes without waiting (see MAX_WAIT_MS). */
  private openUntil = 0;

  /** A read starts; the returned release (idempotent) ends it, and runs by itself after MAX_HOLD_MS. */
  enter(): () => void {
    this.reading++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      clearTimeout(timer);
      if (--this.reading === 0) this.wake();
    };
    const timer = setTimeout(release, MAX_HOLD_MS);
    timer.unref();
    return release;
  }

  /** Null when no read is being answered (or the gate is open); else resolves once none is, or after MAX_WAIT_MS. */
  whenClear(): Promise<void> | null {
    if (this.reading === 0 || performance.now() < this.openUntil) return null;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== done);
        this.openUntil = Math.max(this.openUntil, performance.now() + MAX_WAIT_MS);
        resolve();
      }, MAX_WAIT_MS);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      this.waiters.push(done);
    });
  }

  /** A pass-through whose chunks each wait for whenClear() before they pass. */
  gate(): Transform {
    return new Transform({
      transform: (chunk: Buffer, _encoding: BufferEncoding, next: TransformCallback) => {
        const wait = this.whenClear();
        if (!wait) return next(null, chunk);
        void wait.then(() => next(null, chunk));
      },
    });
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

/** Every request that `isRead` picks holds uploads back from its arrival until its answer starts going out. */
export function registerReadPriority(app: FastifyInstance, isRead: (method: string, url: string) => boolean): void {
  const priority = new ReadPriority();
  const releases = new WeakMap<object, () => void>();
  app.decorate('readPriority', priority);
  app.addHook('onRequest', (request, reply, done) => {
    if (!isRead(request.method, request.url)) {
      // Any other request (uploads, writes) starts once the reads being answered are.
      const wait = priority.whenClear();
      if (wait) void wait.then(() => done());
      else done();
      return;
    }
    const release = priority.enter();
    // onSend runs as the answer starts, also for a stream; close covers a client gone and a hijacked reply.
    reply.raw.once('close', release);
    releases.set(reply.raw, release);
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    releases.get(reply.raw)?.();
    done(null, payload);
  });
}
