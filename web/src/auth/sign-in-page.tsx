import { type FormEvent, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ErrorMessage } from '../ui/error-message';
import { useSignIn } from './use-me';

/** Only paths of this app are followed after sign-in, never another origin (`//host`, `/\\host` and the like). */
function safeNext(next: string | null): string {
  if (!next?.startsWith('/')) return '/datasets';
  const url = new URL(next, window.location.origin);
  return url.origin === window.location.origin ? url.pathname + url.search + url.hash : '/datasets';
}

export function SignInPage() {
  const [apiKey, setApiKey] = useState('');
  const [apiSecret, setApiSecret] = useState('');
  const signIn = useSignIn();
  const navigate = useNavigate();
  const [params] = useSearchParams();

  useEffect(() => {
    document.title = 'Sign in · Loupe';
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate({ api_key: apiKey.trim(), api_secret: apiSecret.trim() }, { onSuccess: () => navigate(safeNext(params.get('next')), { replace: true }) });
  };

  return (
    <main className="sign-in">
      <form className="card" onSubmit={submit} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Sign in to Loupe</h1>
        <p className="muted">Use an API key pair (<code>loupe key create</code> or <code>GET /api/v1/api_credentials</code> gives one).</p>
        <label>
          API key
          <input name="api_key" autoComplete="username" required value={apiKey} onChange={(e) => setApiKey(e.target.value)} />
        </label>
        <label>
          API secret
          <input name="api_secret" type="password" autoComplete="current-password" required value={apiSecret} onChange={(e) => setApiSecret(e.target.value)} />
        </label>
        {signIn.error && <ErrorMessage error={signIn.error} />}
        <button type="submit" className="primary" disabled={signIn.isPending}>
          Sign in
        </button>
      </form>
    </main>
  );
}
