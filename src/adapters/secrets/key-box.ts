import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Encrypts API secrets at rest with AES-256-GCM; the format is `v1.<iv>.<tag>.<ciphertext>` in base64url. */
export class KeyBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('KeyBox needs a 32-byte key');
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), data].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('unrecognised secret format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/** The server key: given by env, or generated once into `$DATA_DIR/secret.key` (mode 0600) and reused. */
export function loadServerKey(configured: Buffer | null, dataDir: string): Buffer {
  if (configured) return configured;
  const file = path.join(dataDir, 'secret.key');
  try {
    return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  try {
    fs.writeFileSync(file, key.toString('hex'), { mode: 0o600, flag: 'wx' });
    return key;
  } catch (err) {
    // Another process (the CLI beside the server) wrote it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex');
    throw err;
  }
}
