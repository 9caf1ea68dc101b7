import { SignJWT } from 'jose';

export interface Credentials {
  apiKey?: string;
  apiSecret?: string;
  token?: string;
  /** Lifetime of each signed token; default 3600 s (the server caps it at its TOKEN_MAX_LIFETIME_SECONDS). */
  tokenTtlSeconds?: number;
}

/** Signs the same token as the server's signClientToken: HS256, kid = sub = the api key, iss 'sdk'. */
export function signToken(apiKey: string, apiSecret: string, ttlSeconds: number, now = Math.floor(Date.now() / 1000)): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: apiKey })
    .setSubject(apiKey)
    .setIssuer('sdk')
    .setIssuedAt(now)
    .setExpirationTime(now + ttlSeconds)
    .sign(new TextEncoder().encode(apiSecret));
}

/** The bearer token for each request: a fixed one, or one signed from the key pair and signed again near its expiry. */
export class TokenSource {
  private current: { token: string; expiresAt: number } | null = null;
  private signing: Promise<string> | null = null;
  private readonly ttl: number;

  constructor(private readonly credentials: Credentials) {
    this.ttl = credentials.tokenTtlSeconds ?? 3600;
    if (!credentials.token && (!credentials.apiKey || !credentials.apiSecret) && (credentials.apiKey || credentials.apiSecret)) {
      throw new Error('apiKey and apiSecret go together');
    }
  }

  /** Whether a 401 can be mended by signing again. */
  get canRefresh(): boolean {
    return Boolean(this.credentials.apiKey && this.credentials.apiSecret);
  }

  async token(): Promise<string | null> {
    if (!this.canRefresh) return this.credentials.token ?? null;
    // Refresh when a fifth of the lifetime (at most a minute) is left, so no request leaves with a token about to lapse.
    const margin = Math.min(60, this.ttl / 5) * 1000;
    if (this.current && this.current.expiresAt - margin > Date.now()) return this.current.token;
    return this.refresh();
  }

  /** Signs a new token (one signing at a time; concurrent callers share it). */
  refresh(): Promise<string> {
    this.signing ??= (async () => {
      try {
        const now = Math.floor(Date.now() / 1000);
        const token = await signToken(this.credentials.apiKey!, this.credentials.apiSecret!, this.ttl, now);
        this.current = { token, expiresAt: (now + this.ttl) * 1000 };
        return token;
      } finally {
        this.signing = null;
      }
    })();
    return this.signing;
  }

  /** Drops a token the server refused, unless another request has already replaced it. */
  invalidate(token: string): void {
    if (this.current?.token === token) this.current = null;
  }
}
