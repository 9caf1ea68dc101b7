import { Loupe } from '../../sdk/src/index.js';
import { loadSettings } from './config.js';

/** The SDK client for the data commands: the config file's server and key pair, each overridden by LOUPE_* variables. */
export function connect(env: NodeJS.ProcessEnv = process.env): Loupe {
  const settings = loadSettings(env);
  if (!settings.url) {
    throw new Error('Not logged in: run `loupe login`, or set LOUPE_URL, LOUPE_API_KEY and LOUPE_API_SECRET');
  }
  if (Boolean(settings.apiKey) !== Boolean(settings.apiSecret)) {
    throw new Error(`An API key needs its secret: set both (${settings.apiKey ? 'LOUPE_API_SECRET' : 'LOUPE_API_KEY'} is missing)`);
  }
  return new Loupe({ url: settings.url, apiKey: settings.apiKey, apiSecret: settings.apiSecret, userAgent: 'loupe-cli' });
}
