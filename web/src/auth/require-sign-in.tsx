import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { ApiError } from '../api/client';
import { ErrorMessage } from '../ui/error-message';
import { useMe } from './use-me';

/** Shows its children to a signed-in user; anyone else goes to the sign-in page and comes back after. */
export function RequireSignIn({ children }: { children: ReactNode }) {
  const me = useMe();
  const location = useLocation();
  if (me.error instanceof ApiError && me.error.status === 401) {
    return <Navigate to={`/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  }
  if (me.error) return <main className="page"><ErrorMessage error={me.error} /></main>;
  if (!me.data) return <main className="page" aria-busy="true"><p>Loading…</p></main>;
  return children;
}
