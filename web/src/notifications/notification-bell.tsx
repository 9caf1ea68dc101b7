import { Link } from 'react-router';
import { bellLabel } from './notification-paging';
import { useUnreadCount } from './use-notifications';

/** The top bar's bell: the unread count, kept current by the notification stream, and the way to the list. */
export function NotificationBell() {
  const unread = useUnreadCount();
  const count = unread.data;
  return (
    <Link to="/notifications" className="bell" aria-label={bellLabel(count)}>
      <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
        <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
        <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
      </svg>
      {count ? <span className="bell-count" aria-hidden="true">{count > 99 ? '99+' : count}</span> : null}
    </Link>
  );
}
