import type { Logger } from 'pino';
import { CoalescedRunner } from '../../jobs/lib/coalesced.js';
import { presentNotification } from './notifications.presenter.js';
import type { NotificationRow, NotificationsRepo } from './notifications.repo.js';

/** Where a stream's bytes go: the HTTP response, seen through only what the fan-out needs. */
export interface StreamSink {
  write(chunk: string): void;
  /** Bytes written and not yet taken by the client. */
  backlog(): number;
  /** Ends the stream from the server side; the transport then calls `close`. */
  end(): void;
}

export interface Subscription {
  readonly userId: string;
  readonly datasetId: string | null;
  /** The last notification sent (its seq); older and equal ones are never sent again. */
  lastSeq: number;
  readonly sink: StreamSink;
  /** While the stream replays what it missed, new notifications wait here. */
  pending: NotificationRow[] | null;
}

export interface StreamOptions {
  pingMs: number;
  /** The fallback poll, for notifications whose NOTIFY this process missed (e.g. while reconnecting). */
  pollMs: number;
  /** A client this far behind is cut off; it reconnects with Last-Event-ID and gets what it missed. */
  maxBacklogBytes: number;
}

const PAGE = 500;

/** One Server-Sent Events message; `data` is always one line of JSON. */
export function sseEvent(event: string, data: unknown, id?: number): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * The notification streams of this process. New notifications are read once per process, never per
 * stream: a NOTIFY (or the fallback poll) makes one query for everything after the process cursor, and
 * each row goes to the open streams of its user from memory. With no stream open nothing is queried; with
 * any number open, the idle load is one poll per `pollMs`. Pings share one timer.
 */
export class NotificationStreams {
  private readonly byUser = new Map<string, Set<Subscription>>();
  private open_ = 0;
  /** Highest seq this process has read; valid while `started`. */
  private cursor = 0;
  private started = false;
  private starting: Promise<void> | null = null;
  private timers: NodeJS.Timeout[] = [];
  private readonly reader = new CoalescedRunner(
    () => this.drain(),
    (err) => this.log.warn({ err }, 'reading new notifications failed; the next poll retries'),
  );

  constructor(
    private readonly repo: NotificationsRepo,
    private readonly log: Logger,
    private readonly options: StreamOptions = { pingMs: 3_000, pollMs: 3_000, maxBacklogBytes: 1 << 20 },
  ) {}

  get size(): number {
    return this.open_;
  }

  /**
   * Registers a stream. With `lastEventId` it first replays the user's notifications after it; without,
   * it gets what is committed from now on. Notifications arriving meanwhile are held, then sent in order.
   */
  async open(userId: string, datasetId: string | null, lastEventId: number | null, sink: StreamSink): Promise<Subscription> {
    const sub: Subscription = { userId, datasetId, lastSeq: Number.MAX_SAFE_INTEGER, sink, pending: [] };
    this.add(sub);
    try {
      await this.start();
      sub.lastSeq = lastEventId ?? this.cursor;
      if (lastEventId !== null) {
        for (;;) {
          const rows = await this.repo.userAfter(userId, sub.lastSeq, datasetId, PAGE);
          for (const row of rows) this.write(sub, row);
          if (rows.length < PAGE) break;
        }
      }
    } catch (err) {
      this.close(sub);
      throw err;
    }
    const held = sub.pending ?? [];
    sub.pending = null;
    for (const row of held) this.deliver(sub, row);
    return sub;
  }

  close(sub: Subscription): void {
    const set = this.byUser.get(sub.userId);
    if (!set?.delete(sub)) return;
    if (set.size === 0) this.byUser.delete(sub.userId);
    this.open_ -= 1;
    if (this.open_ === 0) this.stop();
  }

  /** A NOTIFY said notifications were committed: read them, once for all streams. */
  announce(): void {
    this.read();
  }

  /** Ends every stream (server shutdown). */
  closeAll(): void {
    for (const set of [...this.byUser.values()]) for (const sub of [...set]) sub.sink.end();
    this.byUser.clear();
    this.open_ = 0;
    this.stop();
  }

  private add(sub: Subscription): void {
    let set = this.byUser.get(sub.userId);
    if (!set) this.byUser.set(sub.userId, (set = new Set()));
    set.add(sub);
    this.open_ += 1;
  }

  private start(): Promise<void> {
    if (this.started) return Promise.resolve();
    this.starting ??= this.repo.maxSeq().then(
      (seq) => {
        this.starting = null;
        if (this.open_ === 0) return;
        this.cursor = Math.max(this.cursor, seq);
        this.started = true;
        this.timers = [setInterval(() => this.ping(), this.options.pingMs), setInterval(() => this.read(), this.options.pollMs)];
        for (const t of this.timers) t.unref();
      },
      (err: unknown) => {
        this.starting = null;
        throw err;
      },
    );
    return this.starting;
  }

  /** No stream left: no timers, no queries; the cursor is read again when one opens. */
  private stop(): void {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    this.started = false;
  }

  private read(): void {
    if (this.started) this.reader.trigger();
  }

  private async drain(): Promise<void> {
    for (;;) {
      const rows = await this.repo.after(this.cursor, PAGE);
      for (const row of rows) {
        this.cursor = Math.max(this.cursor, row.seq);
        for (const sub of this.byUser.get(row.user_id) ?? []) this.deliver(sub, row);
      }
      if (rows.length < PAGE || !this.started) return;
    }
  }

  private deliver(sub: Subscription, row: NotificationRow): void {
    if (sub.pending) sub.pending.push(row);
    else this.write(sub, row);
  }

  private write(sub: Subscription, row: NotificationRow): void {
    if (row.seq <= sub.lastSeq) return;
    sub.lastSeq = row.seq;
    if (sub.datasetId !== null && row.dataset_id !== sub.datasetId) return;
    sub.sink.write(sseEvent('notification', presentNotification(row), row.seq));
  }

  private ping(): void {
    const chunk = sseEvent('ping', { time: new Date().toISOString() });
    for (const set of this.byUser.values()) {
      for (const sub of set) {
        if (sub.sink.backlog() > this.options.maxBacklogBytes) sub.sink.end();
        else sub.sink.write(chunk);
      }
    }
  }
}
