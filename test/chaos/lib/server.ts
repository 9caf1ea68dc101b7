import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import pino from 'pino';
import { openDatabase } from '../../../src/adapters/db/database.js';
import { isAlive, postmasterPid } from '../../../src/adapters/db/postmaster.js';
import { KeyBox, loadServerKey } from '../../../src/adapters/secrets/key-box.js';
import { AuthRepo } from '../../../src/modules/auth/auth.repo.js';
import { AuthService, signClientToken } from '../../../src/modules/auth/auth.service.js';
import { type ApiResponse, call, waitFor } from '../../support/server.js';

export type KillTarget = 'server' | 'postgres';

/** How long a server that lost its database is given to exit by itself. */
const SELF_EXIT_MS = 10_000;

/**
 * The real entry point (src/main.ts) as a child process on one DATA_DIR, which the campaign SIGKILLs (it or its
 * embedded PostgreSQL) and starts again. Its log goes to DATA_DIR/chaos-server.log, for a broken round's diagnosis.
 */
export class ChaosServer {
  url = '';
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private apiKey = '';
  private apiSecret = '';
  private token = '';
  private tokenAt = 0;
  readonly logFile: string;

  constructor(
    readonly dataDir: string,
    private readonly env: Record<string, string>,
  ) {
    this.logFile = path.join(dataDir, 'chaos-server.log');
  }

  /** Starts src/main.ts and waits for its "Loupe started" line; the first call also makes the campaign's user. */
  async start(): Promise<void> {
    const log = fs.openSync(this.logFile, 'a');
    const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { ...process.env, DATA_DIR: this.dataDir, PORT: '0', LOG_LEVEL: 'info', AUTH_FAILURE_LIMIT: '1000000', ...this.env },
      stdio: ['ignore', 'pipe', log],
    });
    fs.closeSync(log);
    this.child = proc;
    this.exited = new Promise((resolve) => proc.once('exit', () => resolve()));
    // A campaign cut short (a test's timeout) leaves no server behind: its exit hook stops its database.
    const orphaned = () => proc.kill('SIGTERM');
    process.once('exit', orphaned);
    void this.exited.then(() => process.removeListener('exit', orphaned));
    this.url = await new Promise<string>((resolve, reject) => {
      let out = '';
      proc.stdout!.on('data', (chunk: Buffer) => {
        fs.appendFileSync(this.logFile, chunk);
        out += chunk.toString();
        const lines = out.split('\n');
        out = lines.pop()!;
        for (const line of lines) {
          if (!line.includes('"msg":"Loupe started"')) continue;
          resolve((JSON.parse(line) as { url: string }).url);
        }
      });
      void this.exited.then(() => reject(new Error(`the server exited during its start; see ${this.logFile}`)));
    });
    if (!this.apiKey) await this.createUser();
  }

  /** The postmaster's pid, from the cluster's postmaster.pid. */
  postmasterPid(): number | null {
    return postmasterPid(path.join(this.dataDir, 'pg'));
  }

  /**
   * SIGKILLs the target. The server's embedded PostgreSQL lives on (the next start adopts it). A server whose database
   * was killed is given a few seconds to notice and exit by itself (a supervisor then restarts it, which starts the
   * database again); one still running then is SIGKILLed. Returns how the server ended.
   */
  async kill(target: KillTarget): Promise<'killed' | 'exited by itself'> {
    const proc = this.child;
    this.child = null;
    if (target === 'postgres') {
      const pid = this.postmasterPid();
      if (pid !== null) {
        process.kill(pid, 'SIGKILL');
        await waitFor(async () => (isAlive(pid) ? undefined : true), { timeout: 10_000, what: 'the postmaster to die' });
      }
      const exited = await Promise.race([this.exited.then(() => true), sleep(SELF_EXIT_MS).then(() => false)]);
      if (exited) return 'exited by itself';
    }
    proc?.kill('SIGKILL');
    await this.exited;
    return 'killed';
  }

  /** The ids of the tasks and export jobs not ended, read from the database directly (in a few ms). */
  async activeWork(): Promise<Set<string>> {
    const client = new pg.Client({
      host: path.join(this.dataDir, 'pg-run'),
      port: 5432,
      user: 'loupe',
      database: 'loupe',
      password: fs.readFileSync(path.join(this.dataDir, 'pg-password'), 'utf8').trim(),
    });
    await client.connect();
    try {
      const { rows } = await client.query<{ id: string }>(
        `select id::text from tasks where status in ('INITIALIZING', 'RUNNING') union all select id::text from exports where status in ('PENDING', 'RUNNING')`,
      );
      return new Set(rows.map((r) => r.id));
    } finally {
      await client.end();
    }
  }

  /** A graceful stop (SIGTERM), for the end of a campaign. */
  async stop(): Promise<void> {
    const proc = this.child;
    this.child = null;
    if (!proc) return;
    proc.kill('SIGTERM');
    await this.exited;
  }

  get running(): boolean {
    return this.child !== null;
  }

  api(method: string, route: string, body?: unknown): Promise<ApiResponse> {
    return call(this.url, this.bearer(), method, route, body);
  }

  /** The original bytes of a media (a redirect, as with S3 blobs, is followed). */
  async original(datasetId: string, mediaId: string): Promise<Buffer> {
    const res = await fetch(`${this.url}/api/v1/dataset/${datasetId}/media/${mediaId}/original`, { headers: { authorization: `Bearer ${this.bearer()}` } });
    if (res.status !== 200) throw new Error(`GET original of ${mediaId}: ${res.status}`);
    return Buffer.from(await res.arrayBuffer());
  }

  private bearer(): string {
    return this.token;
  }

  /** Signs a fresh token when the one held is over ten minutes old (a campaign outlasts any one token). */
  async refreshToken(): Promise<void> {
    if (Date.now() - this.tokenAt < 600_000) return;
    this.token = await signClientToken(this.apiKey, this.apiSecret, 1800);
    this.tokenAt = Date.now();
  }

  /** The CLI's path: a second process on the DATA_DIR shares the running embedded database to make a user. */
  private async createUser(): Promise<void> {
    const side = await openDatabase({ databaseUrl: null, dataDir: this.dataDir, owner: 'cli' }, pino({ level: 'silent' }));
    try {
      const auth = new AuthService(new AuthRepo(side.db), new KeyBox(loadServerKey(null, this.dataDir)), { tokenMaxLifetimeSeconds: 3600, sessionLifetimeSeconds: 3600 });
      const issued = await auth.createUser(`chaos-${process.pid}-${Date.now()}@example.com`);
      this.apiKey = issued.api_key;
      this.apiSecret = issued.api_secret;
    } finally {
      await side.close();
    }
    await this.refreshToken();
  }
}
