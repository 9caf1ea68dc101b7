import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigFileError, configPath, loadSettings, readConfig, removeConfig, uploadStateDir, writeConfig } from '../../src/cli/config.js';
import { CommanderError } from 'commander';
import { LoupeError, WaitError } from '../../sdk/src/index.js';
import { InterruptedError, UsageError, errorMessage, exitCodeFor } from '../../src/cli/exit-codes.js';
import { duration, table } from '../../src/cli/output.js';
import { UploadStateFiles } from '../../src/cli/upload-state.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-cli-config-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const mode = (file: string) => fs.statSync(file).mode & 0o777;
const DATASET = '0b7e7c52-5d1e-4d7b-9b8a-3f1c2d4e5f60';

describe('config file', () => {
  it('lives at LOUPE_CONFIG, else under XDG_CONFIG_HOME, else under ~/.config; upload states beside it', () => {
    expect(configPath({ LOUPE_CONFIG: 'rel/c.json', XDG_CONFIG_HOME: '/x', HOME: '/h' })).toBe(path.resolve('rel/c.json'));
    expect(configPath({ XDG_CONFIG_HOME: '/x', HOME: '/h' })).toBe('/x/loupe/config.json');
    expect(configPath({ HOME: '/h' })).toBe('/h/.config/loupe/config.json');
    expect(uploadStateDir({ LOUPE_CONFIG: '/a/b/c.json' })).toBe('/a/b/uploads');
  });

  it('is written 0600 in a 0700 folder, also over a file that was readable by others, and read back', () => {
    const file = path.join(dir, 'new', 'config.json');
    writeConfig(file, { url: 'http://h:1', api_key: 'lk_a', api_secret: 's' });
    expect(mode(file)).toBe(0o600);
    expect(mode(path.dirname(file))).toBe(0o700);
    fs.chmodSync(file, 0o644);
    writeConfig(file, { url: 'http://h:2' });
    expect(mode(file)).toBe(0o600);
    expect(readConfig(file)).toEqual({ url: 'http://h:2' });
    expect(fs.readdirSync(path.dirname(file))).toEqual(['config.json']);
  });

  it('is null when missing and a named error when broken; logout removes it once', () => {
    const file = path.join(dir, 'broken.json');
    expect(readConfig(file)).toBeNull();
    fs.writeFileSync(file, '{not json');
    expect(() => readConfig(file)).toThrow(new ConfigFileError(`${file} is not valid JSON: run \`loupe login\` again or remove the file`));
    fs.writeFileSync(file, '{"api_key":"k"}');
    expect(() => readConfig(file)).toThrow(ConfigFileError);
    expect(removeConfig(file)).toBe(true);
    expect(removeConfig(file)).toBe(false);
  });

  it('gives way to LOUPE_URL, LOUPE_API_KEY and LOUPE_API_SECRET one by one', () => {
    const file = path.join(dir, 'env.json');
    writeConfig(file, { url: 'http://file', api_key: 'lk_file', api_secret: 'file-secret' });
    expect(loadSettings({ LOUPE_CONFIG: file })).toEqual({ url: 'http://file', apiKey: 'lk_file', apiSecret: 'file-secret', configPath: file });
    expect(loadSettings({ LOUPE_CONFIG: file, LOUPE_URL: 'http://env', LOUPE_API_SECRET: 'env-secret' })).toEqual({
      url: 'http://env',
      apiKey: 'lk_file',
      apiSecret: 'env-secret',
      configPath: file,
    });
    expect(loadSettings({ LOUPE_CONFIG: path.join(dir, 'none.json'), LOUPE_URL: 'http://only' })).toMatchObject({ url: 'http://only', apiKey: undefined });
  });
});

describe('upload state files', () => {
  const states = new UploadStateFiles(path.join(dir, 'uploads'));

  it('save one 0600 file per dataset, load it back, list it and remove it', () => {
    expect(states.load(DATASET)).toBeNull();
    states.save({ name: 'cats', folder: '/data/cats', state: { datasetId: DATASET, transId: 3, sent: ['a.jpg'] } });
    states.save({ name: 'cats', folder: '/data/cats', state: { datasetId: DATASET, transId: 3, sent: ['a.jpg', 'sub/b.jpg'] } });
    expect(mode(states.path(DATASET))).toBe(0o600);
    expect(states.load(DATASET)).toEqual({ name: 'cats', folder: '/data/cats', state: { datasetId: DATASET, transId: 3, sent: ['a.jpg', 'sub/b.jpg'] } });
    fs.writeFileSync(path.join(states.dir, 'notes.json'), '{}');
    expect(states.list().map((s) => s.state.datasetId)).toEqual([DATASET]);
    states.remove(DATASET);
    expect(states.load(DATASET)).toBeNull();
    expect(states.list()).toEqual([]);
  });

  it('take only a dataset id as a name, so no path leaves the folder', () => {
    expect(() => states.path('../../etc/passwd')).toThrow(UsageError);
    expect(() => states.load('x')).toThrow('x is not a dataset id');
  });

  it('refuse a file that belongs to another dataset', () => {
    fs.writeFileSync(states.path(DATASET), JSON.stringify({ name: 'n', folder: '/f', state: { datasetId: 'other', transId: 1, sent: [] } }));
    expect(() => states.load(DATASET)).toThrow(`is not an upload state file of dataset ${DATASET}`);
  });
});

describe('human output', () => {
  it('pads columns to the widest cell and shows a missing value as -', () => {
    expect(table(['ID', 'N', 'NAME'], [['a', 10, 'x y'], ['bbb', null, 'z']])).toBe('ID   N   NAME\na    10  x y\nbbb  -   z');
  });

  it('writes durations short', () => {
    expect([duration(null), duration(5.4), duration(75), duration(7260)]).toEqual(['?', '5s', '1m15s', '2h01m']);
  });
});

describe('exit codes and error lines', () => {
  it('map 404 to 3, 409 to 4, usage to 2, Ctrl-C to 130 and every other failure to 1', () => {
    const http = (status: number) => new LoupeError(status, 'detail', 'GET', '/api/v1/x');
    expect([404, 409, 401, 403, 422, 500].map((s) => exitCodeFor(http(s)))).toEqual([3, 4, 1, 1, 1, 1]);
    expect(exitCodeFor(new WaitError('Decoding failed', '/api/v1/dataset/x', 'ERROR', null))).toBe(1);
    expect(exitCodeFor(new CommanderError(1, 'commander.missingArgument', 'missing'))).toBe(2);
    expect(exitCodeFor(new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)'))).toBe(0);
    expect([exitCodeFor(new UsageError('u')), exitCodeFor(new InterruptedError('i')), exitCodeFor(new Error('e'))]).toEqual([2, 130, 1]);
  });

  it("print the server's detail verbatim, and name the server that cannot be reached", () => {
    expect(errorMessage(new LoupeError(409, 'The current snapshot cannot be deleted', 'DELETE', '/x'))).toBe('The current snapshot cannot be deleted');
    const refused = new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }) });
    expect(errorMessage(refused, 'http://127.0.0.1:1')).toBe('Cannot reach http://127.0.0.1:1: connect ECONNREFUSED 127.0.0.1:1');
  });
});
