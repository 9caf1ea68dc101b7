import { Command, Option } from 'commander';
import pino from 'pino';
import path from 'node:path';
import { openDatabase } from '../adapters/db/database.js';
import { hasEmbeddedCluster } from '../adapters/db/embedded-postgres.js';
import { KeyBox, loadServerKey } from '../adapters/secrets/key-box.js';
import { ConfigError, loadConfig } from '../config.js';
import { AppError } from '../core/errors.js';
import { AuthRepo } from '../modules/auth/auth.repo.js';
import { AuthService } from '../modules/auth/auth.service.js';

/** Runs `work` against the same DATA_DIR / DATABASE_URL as the server, whether the server is running or not. */
async function withAuth<T>(work: (auth: AuthService) => Promise<T>): Promise<T> {
  const config = loadConfig(process.env);
  // Creating a database here would give the CLI its own users, which the server (on another DATA_DIR) never sees.
  if (!config.databaseUrl && !hasEmbeddedCluster(config.dataDir)) {
    throw new Error(
      `No Loupe database in DATA_DIR=${path.resolve(config.dataDir)}. Set DATA_DIR (or DATABASE_URL) to the server's, ` +
        'or start the server once with this DATA_DIR to create it.',
    );
  }
  // Logs go to stderr: stdout carries only the command's answer.
  const log = pino({ level: process.env.LOG_LEVEL ?? 'warn' }, pino.destination(2));
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, sharedBuffersMb: config.dbSharedBuffersMb, owner: 'cli', poolSize: 2 }, log);
  try {
    const keyBox = new KeyBox(loadServerKey(config.secretKey, config.dataDir));
    return await work(new AuthService(new AuthRepo(database.db), keyBox, config));
  } finally {
    await database.close();
  }
}

function print(value: unknown, json: boolean, text: string): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text}\n`);
}

const program = new Command('loupe')
  .description('Loupe administration. Uses DATA_DIR (default ./data) or DATABASE_URL, like the server.')
  .showHelpAfterError();

const user = program.command('user').description('manage users');
user
  .command('create')
  .description('create a user and their first API key pair (the secret is shown once)')
  .requiredOption('--email <email>', 'the user\'s e-mail address')
  .option('--json', 'print one JSON object: {"user_id","email","api_key","api_secret"}')
  .action(async (opts: { email: string; json?: boolean }) => {
    const issued = await withAuth((auth) => auth.createUser(opts.email));
    print(issued, Boolean(opts.json), `user_id:    ${issued.user_id}\nemail:      ${issued.email}\napi_key:    ${issued.api_key}\napi_secret: ${issued.api_secret}`);
  });
user
  .command('list')
  .description('list users and how many active API keys each holds')
  .option('--json', 'print a JSON array')
  .action(async (opts: { json?: boolean }) => {
    const users = await withAuth((auth) => auth.listUsers());
    const rows = users.map((u) => ({ user_id: u.id, email: u.email, active_keys: u.active_keys, created_at: u.created_at.toISOString() }));
    print(rows, Boolean(opts.json), rows.map((u) => `${u.user_id}  ${u.email}  keys=${u.active_keys}`).join('\n') || '(no users)');
  });

const key = program.command('key').description('manage API key pairs');
key
  .command('create')
  .description('issue another API key pair to an existing user')
  .requiredOption('--email <email>', 'the user\'s e-mail address')
  .option('--json', 'print one JSON object')
  .action(async (opts: { email: string; json?: boolean }) => {
    const issued = await withAuth((auth) => auth.createKeyForEmail(opts.email));
    print(issued, Boolean(opts.json), `api_key:    ${issued.api_key}\napi_secret: ${issued.api_secret}`);
  });
key
  .command('revoke')
  .description('revoke an API key: its tokens and sessions stop working at once')
  .argument('<api_key>', 'the key to revoke')
  .action(async (apiKey: string) => {
    const revoked = await withAuth((auth) => auth.revokeKey(apiKey));
    if (!revoked) throw new AppError(404, `No active API key ${apiKey}`);
    print({ revoked: apiKey }, false, `revoked ${apiKey}`);
  });

program
  .command('token')
  .description('print a JWT signed with the user\'s newest API key, for quick use with curl')
  .requiredOption('--email <email>', 'the user\'s e-mail address')
  .addOption(new Option('--ttl <seconds>', 'lifetime in seconds').default('3600').argParser((v) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n <= 0) throw new Error('--ttl must be a positive integer');
    return n;
  }))
  .action(async (opts: { email: string; ttl: number | string }) => {
    const token = await withAuth((auth) => auth.signToken(opts.email, Number(opts.ttl)));
    print(token, false, token);
  });

program.parseAsync(process.argv).catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof AppError) console.error(err.message);
  else console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
