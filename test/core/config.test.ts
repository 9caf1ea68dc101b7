import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      role: 'all',
      port: 8080,
      host: '127.0.0.1',
      dataDir: path.resolve('./data'),
      databaseUrl: null,
      logLevel: 'info',
      publicUrl: null,
      secretKey: null,
    });
  });

  it('gives the embedded database a quarter of the memory for its buffers, 128 MB to 8 GB, unless told', () => {
    const quarter = Math.floor(Math.min(os.totalmem(), (process.constrainedMemory?.() || Infinity)) / 4 / 2 ** 20);
    expect(loadConfig({}).dbSharedBuffersMb).toBe(Math.min(8192, Math.max(128, quarter)));
    expect(loadConfig({ DB_SHARED_BUFFERS_MB: '512' }).dbSharedBuffersMb).toBe(512);
    expect(() => loadConfig({ DB_SHARED_BUFFERS_MB: 'lots' })).toThrow(/DB_SHARED_BUFFERS_MB must be an integer from 16/);
  });

  it('lists every bad value at once', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x/y', PUBLIC_URL: 'not a url', LOUPE_SECRET_KEY: 'abc' }, { role: 'boss' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(6);
    expect(problems.join('\n')).toMatch(/PORT.*eighty/);
    expect(problems.join('\n')).toMatch(/LOG_LEVEL.*loud/);
    expect(problems.join('\n')).toMatch(/DATABASE_URL must use postgres:/);
    expect(problems.join('\n')).toMatch(/PUBLIC_URL is not a valid URL/);
    expect(problems.join('\n')).toMatch(/LOUPE_SECRET_KEY must be 32 bytes/);
    expect(problems.join('\n')).toMatch(/--role must be one of api, worker, all/);
  });

  it('limits failed authentication to 20 a minute per api_key and 100 per address unless told, and checks the values', () => {
    expect(loadConfig({})).toMatchObject({ authFailureLimit: 20, authFailureAddressLimit: 100, authFailureWindowSeconds: 60 });
    expect(loadConfig({ AUTH_FAILURE_LIMIT: '5', AUTH_FAILURE_ADDRESS_LIMIT: '9', AUTH_FAILURE_WINDOW_SECONDS: '2' })).toMatchObject({
      authFailureLimit: 5,
      authFailureAddressLimit: 9,
      authFailureWindowSeconds: 2,
    });
    expect(() => loadConfig({ AUTH_FAILURE_LIMIT: '0', AUTH_FAILURE_ADDRESS_LIMIT: 'many', AUTH_FAILURE_WINDOW_SECONDS: '-1' })).toThrow(
      /AUTH_FAILURE_LIMIT must be an integer from 1[\s\S]*AUTH_FAILURE_ADDRESS_LIMIT must be an integer[\s\S]*AUTH_FAILURE_WINDOW_SECONDS must be an integer from 1/,
    );
  });

  it('keeps blobs in DATA_DIR unless BLOB_URL names an S3 bucket; downloads redirect unless BLOB_PROXY', () => {
    expect(loadConfig({}).blobs).toEqual({ s3: null, proxy: false });
    expect(loadConfig({ BLOB_URL: 's3://media/loupe', BLOB_PROXY: 'true' }).blobs).toEqual({ s3: { bucket: 'media', prefix: 'loupe/' }, proxy: true });
    expect(() => loadConfig({ BLOB_URL: 'file:///srv/blobs' })).toThrow(/BLOB_URL must be s3:\/\/bucket or s3:\/\/bucket\/prefix .*got "file:\/\/\/srv\/blobs"/);
    expect(() => loadConfig({ BLOB_PROXY: 'maybe' })).toThrow(/BLOB_PROXY must be true or false/);
  });

  it('reads the role from the argument before the environment', () => {
    expect(loadConfig({ LOUPE_ROLE: 'worker' }).role).toBe('worker');
    expect(loadConfig({ LOUPE_ROLE: 'worker' }, { role: 'api' }).role).toBe('api');
  });

  it('accepts a hex server key', () => {
    expect(loadConfig({ LOUPE_SECRET_KEY: 'ab'.repeat(32) }).secretKey).toHaveLength(32);
  });

  it('keeps tokens on by default; LOUPE_AUTH=none only with a loopback HOST', () => {
    expect(loadConfig({}).authMode).toBe('token');
    for (const host of ['127.0.0.1', '::1', 'localhost', 'LOCALHOST']) expect(loadConfig({ LOUPE_AUTH: 'none', HOST: host }).authMode).toBe('none');
    expect(loadConfig({ LOUPE_AUTH: 'none' }).authMode).toBe('none');
    const refused = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as ConfigError).problems;
      }
      throw new Error('loadConfig accepted it');
    };
    expect(refused({ LOUPE_AUTH: 'none', HOST: '0.0.0.0' })).toEqual([
      'LOUPE_AUTH=none needs HOST to be a loopback address (127.0.0.1, ::1, localhost); HOST is "0.0.0.0"',
    ]);
    expect(refused({ LOUPE_AUTH: 'none', HOST: '192.168.1.5', PORT: 'x' })).toHaveLength(2);
    expect(refused({ LOUPE_AUTH: 'nobody' })).toEqual(['LOUPE_AUTH must be one of token, none (got "nobody")']);
    expect(loadConfig({ HOST: '0.0.0.0' }).authMode).toBe('token');
  });
});
