import { type KeyObject, createHash, createSecretKey, randomBytes, timingSafeEqual } from 'node:crypto';
import { decodeProtectedHeader, errors as joseErrors, jwtVerify } from 'jose';
import { signToken } from '../../../sdk/src/auth.js';
import type { KeyBox } from '../../adapters/secrets/key-box.js';
import { errors } from '../../core/errors.js';
import { AuthFailures, type FailureSubject } from './auth-failures.js';
import type { AuthRepo } from './auth.repo.js';

/** The signed-in caller, as every service sees it. */
export interface Principal {
  userId: string;
  email: string;
}

export interface IssuedKey {
  user_id: string;
  email: string;
  api_key: string;
  api_secret: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** The one user of single-user local mode (LOUPE_AUTH=none). */
export const LOCAL_USER_EMAIL = 'admin@loupe.local';
const CLOCK_TOLERANCE_SECONDS = 30;
/** Verified keys are remembered this long; a revocation notice evicts them at once. */
const KEY_CACHE_MS = 30_000;
const KEY_CACHE_MAX = 10_000;

interface CachedKey {
  principal: Principal;
  /** A KeyObject made once, so each verification skips importing the key. */
  secret: KeyObject;
  expires: number;
}

/** A token that verified, and the key entry it verified against. */
interface VerifiedToken {
  apiKey: string;
  key: CachedKey;
  exp: number;
}

export class AuthService {
  private readonly keys = new Map<string, CachedKey>();
  /**
   * Clients send one token with many requests; verifying its HMAC and claims each time was a seventh of a task
   * list's CPU. A token stays verified while the key entry it verified against is the cached one (a revocation
   * or the key cache's expiry drops that entry) and its exp, with the same tolerance, has not passed.
   */
  private readonly tokens = new Map<string, VerifiedToken>();
  private local: Principal | null = null;
  private readonly failures: AuthFailures;

  constructor(
    private readonly repo: AuthRepo,
    private readonly keyBox: KeyBox,
    private readonly options: {
      tokenMaxLifetimeSeconds: number;
      sessionLifetimeSeconds: number;
      /** Defaults as in config.ts: 20 failures a minute per api_key, 100 per address. */
      authFailureLimit?: number;
      authFailureAddressLimit?: number;
      authFailureWindowSeconds?: number;
    },
  ) {
    this.failures = new AuthFailures({
      keyLimit: options.authFailureLimit ?? 20,
      addressLimit: options.authFailureAddressLimit ?? 100,
      windowSeconds: options.authFailureWindowSeconds ?? 60,
    });
  }

  /** Single-user local mode: finds or creates the local user; from then on requests without credentials act as it. */
  async localUser(): Promise<Principal> {
    const user = await this.repo.ensureUser(LOCAL_USER_EMAIL);
    this.local = { userId: user.id, email: user.email };
    return this.local;
  }

  /** Who a request without credentials acts as: the local user in single-user mode, otherwise nobody. */
  localPrincipal(): Principal | null {
    return this.local;
  }

  async createUser(email: string): Promise<IssuedKey> {
    const normalised = email.trim();
    if (!EMAIL.test(normalised)) throw errors.invalidParameter(`Not a valid e-mail address: ${email}`);
    if (await this.repo.findUserByEmail(normalised)) throw errors.userExists(normalised);
    const key = this.newKey();
    const user = await this.repo.createUser(normalised, key);
    return { user_id: user.id, email: user.email, api_key: key.apiKey, api_secret: key.apiSecret };
  }

  async createKeyForEmail(email: string): Promise<IssuedKey> {
    const user = await this.repo.findUserByEmail(email);
    if (!user) throw errors.userNotFound(email);
    return this.issueKey({ userId: user.id, email: user.email });
  }

  /** A new key pair; the secret is returned this once and stored only encrypted. */
  async issueKey(principal: Principal): Promise<IssuedKey> {
    const key = this.newKey();
    await this.repo.insertKey(principal.userId, key.apiKey, key.secretCiphertext);
    return { user_id: principal.userId, email: principal.email, api_key: key.apiKey, api_secret: key.apiSecret };
  }

  private newKey(): { apiKey: string; apiSecret: string; secretCiphertext: string } {
    const apiSecret = randomBytes(32).toString('base64url');
    return { apiKey: `lk_${randomBytes(16).toString('hex')}`, apiSecret, secretCiphertext: this.keyBox.seal(apiSecret) };
  }

  async revokeKey(apiKey: string): Promise<boolean> {
    this.keys.delete(apiKey);
    return this.repo.revokeKey(apiKey);
  }

  /** Drops a key (or all keys) from the verification cache: on revocation notices from any process. */
  forgetKey(apiKey?: string): void {
    if (apiKey === undefined) this.keys.clear();
    else this.keys.delete(apiKey);
  }

  private async activeKey(apiKey: string): Promise<CachedKey | undefined> {
    const cached = this.keys.get(apiKey);
    if (cached && cached.expires > Date.now()) return cached;
    const row = await this.repo.findActiveKey(apiKey);
    if (!row) return undefined;
    const entry = {
      principal: { userId: row.user_id, email: row.email },
      secret: createSecretKey(Buffer.from(this.keyBox.open(row.secret_ciphertext), 'utf8')),
      expires: Date.now() + KEY_CACHE_MS,
    };
    if (this.keys.size >= KEY_CACHE_MAX) this.keys.clear();
    this.keys.set(apiKey, entry);
    return entry;
  }

  listUsers() {
    return this.repo.listUsers();
  }

  findUserByEmail(email: string) {
    return this.repo.findUserByEmail(email);
  }

  /** A token from `address`: refused (429) while that address or the token's api_key has failed too often. */
  verifyToken(token: string, address: string): Promise<Principal> {
    const known = this.verified(token);
    if (known) return this.failures.attempt([{ address }, { apiKey: known.apiKey }], async () => known.key.principal);
    const subjects: FailureSubject[] = [{ address }];
    const kid = kidOf(token);
    if (kid) subjects.push({ apiKey: kid });
    return this.failures.attempt(subjects, () => this.checkToken(token));
  }

  private verified(token: string): VerifiedToken | undefined {
    const known = this.tokens.get(token);
    if (!known) return undefined;
    const now = Date.now();
    if (this.keys.get(known.apiKey) === known.key && known.key.expires > now && known.exp > Math.floor(now / 1000) - CLOCK_TOLERANCE_SECONDS) {
      return known;
    }
    this.tokens.delete(token);
    return undefined;
  }

  /** A malformed header from `address` counts as a failed attempt like a bad token. */
  rejectMalformedHeader(address: string, why: string): Promise<never> {
    return this.failures.attempt([{ address }], () => Promise.reject(errors.invalidToken(why)));
  }

  /** Verifies a client-signed JWT exactly as clients of the hosted service sign them (HS256, kid = sub = api_key). */
  private async checkToken(token: string): Promise<Principal> {
    let header: ReturnType<typeof decodeProtectedHeader>;
    try {
      header = decodeProtectedHeader(token);
    } catch {
      throw errors.invalidToken('malformed token');
    }
    if (header.alg !== 'HS256') throw errors.invalidToken(`algorithm ${String(header.alg)} is not accepted, use HS256`);
    if (typeof header.kid !== 'string' || header.kid === '') throw errors.invalidToken('missing kid header');
    if (header.kid.includes('\0')) throw errors.invalidToken('kid contains a NUL byte');

    const key = await this.activeKey(header.kid);
    if (!key) throw errors.invalidToken('unknown or revoked api_key');

    let payload: Awaited<ReturnType<typeof jwtVerify>>['payload'];
    try {
      ({ payload } = await jwtVerify(token, key.secret, {
        algorithms: ['HS256'],
        requiredClaims: ['exp', 'iat', 'sub'],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
      }));
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw errors.invalidToken('token has expired');
      if (err instanceof joseErrors.JWSSignatureVerificationFailed) throw errors.invalidToken('signature verification failed');
      if (err instanceof joseErrors.JWTClaimValidationFailed) throw errors.invalidToken(err.message);
      throw errors.invalidToken('malformed token');
    }
    if (payload.sub !== header.kid) throw errors.invalidToken('sub must equal the api_key in kid');
    if (payload.iss !== undefined && payload.iss !== 'sdk') throw errors.invalidToken('iss must be "sdk"');
    const lifetime = payload.exp! - payload.iat!;
    if (lifetime > this.options.tokenMaxLifetimeSeconds) {
      throw errors.invalidToken(`token lifetime ${lifetime} s exceeds the maximum of ${this.options.tokenMaxLifetimeSeconds} s`);
    }
    if (payload.iat! > Date.now() / 1000 + CLOCK_TOLERANCE_SECONDS) throw errors.invalidToken('token issued in the future');
    if (this.tokens.size >= KEY_CACHE_MAX) this.tokens.clear();
    this.tokens.set(token, { apiKey: header.kid, key, exp: payload.exp! });
    return key.principal;
  }

  /** Signs a token the way an SDK client would, for the CLI's `loupe token`. */
  async signToken(email: string, ttlSeconds: number): Promise<string> {
    const user = await this.repo.findUserByEmail(email);
    if (!user) throw errors.userNotFound(email);
    const key = await this.repo.findNewestActiveKey(user.id);
    if (key) return signClientToken(key.api_key, this.keyBox.open(key.secret_ciphertext), ttlSeconds);
    const issued = await this.issueKey({ userId: user.id, email: user.email });
    return signClientToken(issued.api_key, issued.api_secret, ttlSeconds);
  }

  /** Sign-in from `address`: refused (429) while that address or this api_key has failed too often. */
  startSession(apiKey: string, apiSecret: string, address: string): Promise<{ cookie: string; principal: Principal; maxAge: number }> {
    return this.failures.attempt([{ address }, { apiKey }], () => this.checkSignIn(apiKey, apiSecret), { reserve: true });
  }

  private async checkSignIn(apiKey: string, apiSecret: string): Promise<{ cookie: string; principal: Principal; maxAge: number }> {
    const key = await this.repo.findActiveKey(apiKey);
    if (!key || !sameSecret(this.keyBox.open(key.secret_ciphertext), apiSecret)) throw errors.invalidCredentials();
    const cookie = randomBytes(32).toString('base64url');
    const maxAge = this.options.sessionLifetimeSeconds;
    await this.repo.insertSession(hash(cookie), key.user_id, key.api_key, new Date(Date.now() + maxAge * 1000));
    return { cookie, principal: { userId: key.user_id, email: key.email }, maxAge };
  }

  verifySession(cookie: string, address: string): Promise<Principal> {
    return this.failures.attempt([{ address }], () => this.checkSession(cookie));
  }

  private async checkSession(cookie: string): Promise<Principal> {
    const user = await this.repo.findSessionUser(hash(cookie));
    if (!user) throw errors.invalidToken('session expired or unknown');
    return { userId: user.id, email: user.email };
  }

  endSession(cookie: string): Promise<void> {
    return this.repo.deleteSession(hash(cookie));
  }
}

/** A client token as SDK clients sign it (the SDK's own signer: one definition of the format). */
export function signClientToken(apiKey: string, apiSecret: string, ttlSeconds: number): Promise<string> {
  return signToken(apiKey, apiSecret, ttlSeconds);
}

/** The api_key a token names, read without verifying it (only to count its failures). */
function kidOf(token: string): string | undefined {
  try {
    const { kid } = decodeProtectedHeader(token);
    return typeof kid === 'string' && kid !== '' ? kid : undefined;
  } catch {
    return undefined;
  }
}

function hash(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

function sameSecret(expected: string, given: string): boolean {
  const digest = (v: string) => createHash('sha256').update(v).digest();
  return timingSafeEqual(digest(expected), digest(given));
}
