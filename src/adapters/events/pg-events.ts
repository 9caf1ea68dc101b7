import pg from 'pg';
import type { Logger } from 'pino';

export type EventHandler = (payload: string) => void;

/**
 * Cross-process events over PostgreSQL LISTEN/NOTIFY: one dedicated connection per process,
 * reconnected after a failure. Senders just `select pg_notify(channel, payload)` in their transaction.
 */
export class PgEvents {
  private client: pg.Client | null = null;
  private readonly handlers = new Map<string, EventHandler[]>();
  private closed = false;
  private retry: NodeJS.Timeout | null = null;

  constructor(
    private readonly connection: pg.ClientConfig,
    private readonly log: Logger,
    /** Called after a reconnect: notifications sent while disconnected are lost, so caches must be dropped. */
    private readonly onReconnect: () => void = () => {},
  ) {}

  on(channel: string, handler: EventHandler): void {
    this.handlers.set(channel, [...(this.handlers.get(channel) ?? []), handler]);
  }

  async start(): Promise<void> {
    const client = new pg.Client(this.connection);
    client.on('notification', (msg) => {
      for (const handler of this.handlers.get(msg.channel) ?? []) handler(msg.payload ?? '');
    });
    client.on('error', (err) => {
      this.log.warn({ err }, 'event connection lost; reconnecting');
      this.client = null;
      client.end().catch(() => {});
      this.scheduleReconnect();
    });
    await client.connect();
    for (const channel of this.handlers.keys()) await client.query(`listen ${pg.escapeIdentifier(channel)}`);
    this.client = client;
  }

  private scheduleReconnect(): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.start().then(
        () => this.onReconnect(),
        (err: unknown) => {
          this.log.warn({ err }, 'event connection failed; retrying');
          this.scheduleReconnect();
        },
      );
    }, 1_000);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    await this.client?.end().catch(() => {});
    this.client = null;
  }
}

export const CHANNELS = {
  apiKeyRevoked: 'loupe_api_key_revoked',
  /** Payload: JSON {dataset_id, batch_id, trans_id, media_count}; the row in media_batches is the durable copy. */
  mediaBatchProcessed: 'loupe_media_batch_processed',
  /** Payload: JSON {seq}, the highest notification sequence number the sending transaction committed. */
  notificationCreated: 'loupe_notification_created',
} as const;
