import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** What `loupe login` stores: the server and the key pair that signs the CLI's tokens. */
export interface StoredConfig {
  url: string;
  api_key?: string;
  api_secret?: string;
}

/** The settings a data command uses: the config file's, each one overridden by its environment variable. */
export interface Settings {
  url?: string;
  apiKey?: string;
  apiSecret?: string;
  configPath: string;
}

export class ConfigFileError extends Error {}

/** LOUPE_CONFIG, else $XDG_CONFIG_HOME/loupe/config.json, else ~/.config/loupe/config.json. */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.LOUPE_CONFIG) return path.resolve(env.LOUPE_CONFIG);
  const base = env.XDG_CONFIG_HOME ? path.resolve(env.XDG_CONFIG_HOME) : path.join(env.HOME || os.homedir(), '.config');
  return path.join(base, 'loupe', 'config.json');
}

/** Interrupted uploads' state files live beside the config file, one per dataset. */
export function uploadStateDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(path.dirname(configPath(env)), 'uploads');
}

export function readConfig(file: string): StoredConfig | null {
  const text = readIfExists(file);
  if (text === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ConfigFileError(`${file} is not valid JSON: run \`loupe login\` again or remove the file`);
  }
  const value = parsed as Partial<StoredConfig> | null;
  if (!value || typeof value !== 'object' || typeof value.url !== 'string') {
    throw new ConfigFileError(`${file} has no "url": run \`loupe login\` again or remove the file`);
  }
  return {
    url: value.url,
    ...(typeof value.api_key === 'string' ? { api_key: value.api_key } : {}),
    ...(typeof value.api_secret === 'string' ? { api_secret: value.api_secret } : {}),
  };
}

/** Writes the file readable by its owner alone (0600, its folder 0700); a reader never sees half a file. */
export function writeConfig(file: string, config: StoredConfig): void {
  writePrivateJson(file, config);
}

export function writePrivateJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  // The mode given to writeFileSync is masked by the umask and ignored for an existing file.
  fs.chmodSync(temp, 0o600);
  fs.renameSync(temp, file);
}

/** True when a file was there to remove. */
export function removeConfig(file: string): boolean {
  try {
    fs.unlinkSync(file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

export function loadSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const file = configPath(env);
  const stored = readConfig(file);
  return {
    url: env.LOUPE_URL || stored?.url,
    apiKey: env.LOUPE_API_KEY || stored?.api_key,
    apiSecret: env.LOUPE_API_SECRET || stored?.api_secret,
    configPath: file,
  };
}

/** A file's text, or null when it does not exist. */
export function readIfExists(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}
