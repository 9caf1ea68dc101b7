import { InvalidArgumentError, Option, type Command } from 'commander';
import { print } from '../output.js';

/**
 * Runs `work` against the same DATA_DIR / DATABASE_URL as the server, whether the server is running or not.
 * The database modules load here, not at start, so the data commands (HTTP only) start fast.
 */
async function withAuth<T>(work: (auth: import('../../modules/auth/auth.service.js').AuthService) => Promise<T>): Promise<T> {
  const [{ default: pino }, path, { openDatabase }, { hasEmbeddedCluster }, { KeyBox, loadServerKey }, { loadConfig }, { AuthRepo }, { AuthService }] =
    await Promise.all([
      import('pino'),
      import('node:path'),
      import('../../adapters/db/database.js'),
      import('../../adapters/db/embedded-postgres.js'),
      import('../../adapters/secrets/key-box.js'),
      import('../../config.js'),
      import('../../modules/auth/auth.repo.js'),
      import('../../modules/auth/auth.service.js'),
    ]);
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

/** user, key and token: administration on the server's own database (DATA_DIR or DATABASE_URL), no HTTP. */
export function adminCommands(program: Command): void {
  const user = program.command('user').description('manage users (on the server\'s database: DATA_DIR or DATABASE_URL)');
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

  const key = program.command('key').description('manage API key pairs (on the server\'s database)');
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
      if (!revoked) throw new Error(`No active API key ${apiKey}`);
      print({ revoked: apiKey }, false, `revoked ${apiKey}`);
    });

  program
    .command('token')
    .description('print a JWT signed with the user\'s newest API key, for quick use with curl (on the server\'s database)')
    .requiredOption('--email <email>', 'the user\'s e-mail address')
    .addOption(new Option('--ttl <seconds>', 'lifetime in seconds').default('3600').argParser((v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError('--ttl must be a positive integer');
      return n;
    }))
    .action(async (opts: { email: string; ttl: number | string }) => {
      const token = await withAuth((auth) => auth.signToken(opts.email, Number(opts.ttl)));
      print(token, false, token);
    });
}
