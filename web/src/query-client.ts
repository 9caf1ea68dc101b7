import { QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './api/client';

/** Sends the browser to the sign-in page, remembering where it was. */
export function goToSignIn(): void {
  if (window.location.pathname === '/sign-in') return;
  const next = window.location.pathname + window.location.search;
  window.location.assign(`/sign-in?next=${encodeURIComponent(next)}`);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error) => {
        if (error instanceof ApiError && error.status === 401) goToSignIn();
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 5_000,
        refetchOnWindowFocus: false,
        // An answer of the API (4xx) will not change by asking again; a lost connection or a 5xx may.
        retry: (count, error) => count < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
      },
    },
  });
}
