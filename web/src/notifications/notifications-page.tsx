import { startTransition, useEffect, useOptimistic } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ErrorMessage } from '../ui/error-message';
import { NOTIFICATIONS_PER_PAGE, type Notification, notificationPageFromParams, notificationPageToParams, rangeText } from './notification-paging';
import { useMarkRead, useNotificationList, useUnreadCount } from './use-notifications';

function NotificationItem({ n, onMarkRead, busy }: { n: Notification; onMarkRead: () => void; busy: boolean }) {
  const read = n.read_at !== null;
  return (
    <li className={`card notification ${read ? '' : 'notification-unread'}`}>
      <div className="row">
        <strong>{n.metadata.view_name}</strong>
        <span className="status">{read ? 'Read' : 'Unread'}</span>
        <span className="spacer" />
        <time className="muted" dateTime={n.created_at}>{new Date(n.created_at).toLocaleString()}</time>
      </div>
      <p style={{ margin: '0.3rem 0' }}>
        {n.metadata.result_count} new {n.metadata.result_count === 1 ? 'match' : 'matches'} in{' '}
        {n.dataset_id ? <Link to={`/datasets/${n.dataset_id}`}>{n.metadata.dataset_name}</Link> : n.metadata.dataset_name}
      </p>
      {!read && (
        <button type="button" disabled={busy} onClick={onMarkRead} aria-label={`Mark read: ${n.metadata.view_name} in ${n.metadata.dataset_name}`}>
          Mark read
        </button>
      )}
    </li>
  );
}

/** The user's notifications (alerts of monitored saved views), newest first, paged, with marking read. */
export function NotificationsPage() {
  const [params, setParams] = useSearchParams();
  const page = notificationPageFromParams(params);
  // The router commits a navigation in a transition; without this the box shows its old state until it does.
  const [unreadOnly, showUnreadOnly] = useOptimistic(page.unreadOnly);
  const list = useNotificationList(page);
  const unread = useUnreadCount();
  const mark = useMarkRead();
  useEffect(() => {
    document.title = 'Notifications · Loupe';
  }, []);

  const data = list.data;
  const go = (offset: number, unreadOnly = page.unreadOnly) => setParams(notificationPageToParams({ offset, unreadOnly }));
  return (
    <main className="page stack">
      <div className="row">
        <h1 style={{ margin: 0 }}>Notifications</h1>
        <span className="spacer" />
        <label className="inline">
          <input
            type="checkbox"
            checked={unreadOnly}
            onChange={(event) => {
              const on = event.target.checked;
              startTransition(() => {
                showUnreadOnly(on);
                go(0, on);
              });
            }}
          />
          Unread only
        </label>
        <button type="button" disabled={!unread.data || mark.isPending} onClick={() => mark.mutate(undefined)}>
          Mark all read
        </button>
      </div>
      {mark.error && <ErrorMessage error={mark.error} />}
      {list.error && <ErrorMessage error={list.error} />}
      {data && data.notifications.length === 0 && (
        <p className="muted">{page.unreadOnly ? 'No unread notifications.' : 'No notifications yet. Monitored saved views notify you when new media match them.'}</p>
      )}
      {data && data.notifications.length > 0 && (
        <ul className="stack notification-list" aria-label="Notifications">
          {data.notifications.map((n) => (
            <NotificationItem key={n.id} n={n} busy={mark.isPending} onMarkRead={() => mark.mutate(n.id)} />
          ))}
        </ul>
      )}
      {data && (data.has_more || page.offset > 0) && (
        <nav className="row" aria-label="Notification pages">
          <button type="button" disabled={page.offset === 0} onClick={() => go(Math.max(0, page.offset - NOTIFICATIONS_PER_PAGE))}>
            Newer
          </button>
          <span className="muted">{rangeText(page.offset, data.notifications.length, data.total)}</span>
          <button type="button" disabled={!data.has_more} onClick={() => go(page.offset + NOTIFICATIONS_PER_PAGE)}>
            Older
          </button>
        </nav>
      )}
    </main>
  );
}
