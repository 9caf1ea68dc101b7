import type { Command } from 'commander';
import type { Notification } from '../../../sdk/src/index.js';
import { connect } from '../client.js';
import { InterruptedError } from '../exit-codes.js';
import { withInterrupt } from '../interrupt.js';
import { print, table } from '../output.js';
import { integer, withJson } from '../options.js';

const line = (n: Notification) => `${n.created_at}  ${n.id}  ${n.title}: ${n.message}`;

export function notificationsCommands(program: Command): void {
  const notifications = program.command('notifications').description('alerts from monitored saved views: list them, or follow them live');

  withJson(
    notifications
      .command('list')
      .description('your notifications, newest first')
      .option('--unread', 'only the unread ones')
      .option('--dataset <dataset_id>', 'only this dataset\'s')
      .option('--limit <n>', 'at most this many', integer(1), 50),
    'an array of notifications',
  ).action(async (opts: { unread?: boolean; dataset?: string; limit: number; json?: boolean }) => {
    const list: Notification[] = [];
    for await (const n of connect().notifications({ unreadOnly: Boolean(opts.unread), ...(opts.dataset ? { datasetId: opts.dataset } : {}) })) {
      list.push(n);
      if (list.length >= opts.limit) break;
    }
    print(list, Boolean(opts.json), () =>
      list.length
        ? table(['CREATED', 'NOTIFICATION_ID', 'READ', 'DATASET_ID', 'TITLE'], list.map((n) => [n.created_at, n.id, n.read_at ? 'yes' : 'no', n.dataset_id, n.title]))
        : '(no notifications)',
    );
  });

  notifications
    .command('tail')
    .description('print notifications as they arrive (the server\'s event stream; reconnects after a dropped connection) until Ctrl-C')
    .option('--dataset <dataset_id>', 'only this dataset\'s')
    .option('--since <event_id>', 'first send what came after this event id')
    .option('--count <n>', 'stop after this many notifications', integer(1))
    .option('--json', 'print each notification as one JSON object per line (a stream, so not one document)')
    .action(async (opts: { dataset?: string; since?: string; count?: number; json?: boolean }) => {
      let received = 0;
      await withInterrupt('stopped', async (signal) => {
        const stream = connect().notificationStream({
          signal,
          ...(opts.dataset ? { datasetId: opts.dataset } : {}),
          ...(opts.since ? { lastEventId: opts.since } : {}),
        });
        for await (const event of stream) {
          if (event.event !== 'notification') continue;
          const n = event.data as Notification;
          process.stdout.write(opts.json ? `${JSON.stringify(n)}\n` : `${line(n)}\n`);
          received += 1;
          if (opts.count !== undefined && received >= opts.count) return;
        }
      }).catch((err: unknown) => {
        // Ctrl-C is how a tail ends.
        if (!(err instanceof InterruptedError)) throw err;
      });
    });
}
