import { Link } from 'react-router';
import { bellLabel } from './notification-paging';
import { useUnreadCount } from './use-notifications';

/** The top bar's bell: the unread count, kept current by the notification stream, and the way to the list. */
export function NotificationBell() {
  const unread = useUnreadCount();
  const count = unread.data;
  return (
    <Link to="/notifications" className="bell" aria-label={bellLabel(count)}>
      <span aria-hidden="true">🔔</span>
      {count ? <span className="bell-count" aria-hidden="true">{count > 99 ? '99+' : count}</span> : null}
    </Link>
  );
}
