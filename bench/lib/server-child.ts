import { spawn } from 'node:child_process';
import pino from 'pino';
import { type DatabaseHandle, openDatabase } from '../../src/adapters/db/database.js';
import { KeyBox, loadServerKey } from '../../src/adapters/secrets/key-box.js';
import { AuthRepo } from '../../src/modules/auth/auth.repo.js';
import { AuthService, signClientToken } from '../../src/modules/auth/auth.service.js';

/** A Loupe server in a process of its own (bench/lib/api-process.ts), as it runs in production. */
export interface ServerChild {
  url: string;
  pid: number;
  /** A full collection in the server (its --expose-gc and SIGUSR2 handler), so memory readings compare live memory. */
  gc(): void;
  /** SIGTERM, then its exit: the server closes its workers and its embedded database. */
  close(): Promise<void>;
}

/** Starts the server with `env` over this process's environment; resolves once it listens. */
export async function startServerChild(env: NodeJS.ProcessEnv): Promise<ServerChild> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/lib/api-process.ts'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const started = await new Promise<{ url: string; pid: number }>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line) as { url: string; pid: number });
    });
    child.once('exit', (code) => reject(new Error(`server exited early (${code})`)));
  });
  return {
    ...started,
    gc: () => child.kill('SIGUSR2'),
    async close() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The server's embedded database, opened beside it the way the CLI does (the bench reads and seeds through it). */
export function openSideDatabase(dataDir: string): Promise<DatabaseHandle> {
  return openDatabase({ databaseUrl: null, dataDir, owner: 'cli' }, pino({ level: 'silent' }));
}

/** A new user with a bearer token the server accepts (its key sealed with the server's key in DATA_DIR). */
export async function benchUser(side: DatabaseHandle, dataDir: string, email: string): Promise<{ id: string; token: string }> {
  const auth = new AuthService(new AuthRepo(side.db), new KeyBox(loadServerKey(null, dataDir)), { tokenMaxLifetimeSeconds: 86_400, sessionLifetimeSeconds: 3600 });
  const issued = await auth.createUser(email);
  return { id: issued.user_id, token: await signClientToken(issued.api_key, issued.api_secret, 3600) };
}
