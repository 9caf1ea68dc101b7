import type { Command } from 'commander';
import { Loupe } from '../../../sdk/src/index.js';
import { configPath, readConfig, removeConfig, writeConfig } from '../config.js';
import { fields, print } from '../output.js';
import { ask } from '../prompt.js';

interface LoginOptions {
  url?: string;
  apiKey?: string;
  apiSecret?: string;
  json?: boolean;
}

export function authCommands(program: Command): void {
  program
    .command('login')
    .description('check a server URL and API key pair (GET /api/v1/auth/me) and store them in the config file (0600)')
    .option('--url <url>', 'the server, e.g. http://127.0.0.1:8080 (asked when not given; LOUPE_URL)')
    .option('--api-key <key>', 'the API key (asked when not given; LOUPE_API_KEY)')
    .option('--api-secret <secret>', 'its secret (asked, unechoed, when not given; LOUPE_API_SECRET keeps it out of the process list)')
    .option('--json', 'print one JSON object: {"url","user_id","email","config_path"}')
    .action(async (opts: LoginOptions) => {
      const file = configPath();
      const previous = readConfig(file);
      const env = process.env;
      const url = (opts.url ?? env.LOUPE_URL ?? (await ask('Server URL', { fallback: previous?.url ?? 'http://127.0.0.1:8080', option: '--url' }))).replace(/\/+$/, '');
      const apiKey = opts.apiKey ?? env.LOUPE_API_KEY ?? (await ask('API key', { option: '--api-key' }));
      const apiSecret = apiKey ? (opts.apiSecret ?? env.LOUPE_API_SECRET ?? (await ask('API secret', { secret: true, option: '--api-secret' }))) : '';

      const me = await new Loupe({ url, apiKey: apiKey || undefined, apiSecret: apiSecret || undefined, userAgent: 'loupe-cli', retries: 1 }).me();
      writeConfig(file, apiKey ? { url, api_key: apiKey, api_secret: apiSecret } : { url });
      print({ url, user_id: me.user_id, email: me.email, config_path: file }, Boolean(opts.json), () =>
        fields([['logged in', `${me.email} (${me.user_id})`], ['server', url], ['config', file]]),
      );
    });

  program
    .command('logout')
    .description('remove the config file (the key pair stays valid on the server; revoke it there to end it)')
    .option('--json', 'print one JSON object: {"removed","config_path"}')
    .action((opts: { json?: boolean }) => {
      const file = configPath();
      const removed = removeConfig(file);
      print({ removed, config_path: file }, Boolean(opts.json), removed ? `logged out: removed ${file}` : `not logged in: no ${file}`);
    });
}
