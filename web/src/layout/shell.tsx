import { NavLink, Outlet, useNavigate } from 'react-router';
import { useMe, useSignOut } from '../auth/use-me';
import { NotificationBell } from '../notifications/notification-bell';
import { useNotificationStream } from '../notifications/use-notifications';

/** The frame of every signed-in page: the app's navigation, who is signed in, and the page below. */
export function Shell() {
  const me = useMe();
  const signOut = useSignOut();
  const navigate = useNavigate();
  useNotificationStream();
  return (
    <>
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <header className="top-bar">
        <span className="brand">Loupe</span>
        <nav aria-label="Main">
          <NavLink to="/datasets">Datasets</NavLink>
          <NavLink to="/tasks">Tasks</NavLink>
          <NavLink to="/notifications">Notifications</NavLink>
        </nav>
        <div className="top-bar-end">
          <NotificationBell />
          <span className="muted user-email">{me.data?.email}</span>
          <button type="button" onClick={() => signOut.mutate(undefined, { onSuccess: () => navigate('/sign-in') })}>
            Sign out
          </button>
        </div>
      </header>
      <div id="content" tabIndex={-1}>
        <Outlet />
      </div>
    </>
  );
}
