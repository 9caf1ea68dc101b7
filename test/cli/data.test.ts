import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHOTOS, generatedJpegs } from '../support/ingest.js';
import { startTestServer, waitFor, type TestServer, type TestUser } from '../support/server.js';
import { readZip } from '../support/zip.js';
import { startUploadProxy, type UploadProxy } from './upload-proxy.js';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-cli-'));
const configFile = path.join(home, 'config', 'config.json');
const photos = path.join(home, 'photos');
const generated = path.join(home, 'generated');
const more = path.join(home, 'more');
// The CLI reads only what a test gives it: no LOUPE_* of the machine's own.
const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('LOUPE_')));

function loupe(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/loupe.js', ...args], { env: { ...baseEnv, LOUPE_CONFIG: configFile, ...env } }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

function json(run: Run): any {
  expect(run, run.stderr).toMatchObject({ code: 0 });
  const lines = run.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!);
}

let server: TestServer;
let user: TestUser;
let proxy: UploadProxy;
let photosId: string;
let generatedId: string;

beforeAll(async () => {
  server = await startTestServer();
  user = await server.createUser();
  proxy = await startUploadProxy(server.url);
  // The seven fixture photos, three of them in a sub-folder, and a file that is not media.
  fs.mkdirSync(path.join(photos, 'sub'), { recursive: true });
  fs.readdirSync(PHOTOS).filter((name) => /\.(jpg|png)$/.test(name)).forEach((name, i) => fs.copyFileSync(path.join(PHOTOS, name), path.join(photos, i < 3 ? 'sub' : '', name)));
  fs.writeFileSync(path.join(photos, 'notes.txt'), 'not a photo');
  const jpegs = await generatedJpegs(8);
  for (const [dir, files] of [[generated, jpegs.slice(0, 6)], [more, jpegs.slice(6)]] as const) {
    fs.mkdirSync(dir);
    for (const f of files) fs.writeFileSync(path.join(dir, f.name), f.bytes);
  }
});

afterAll(async () => {
  await proxy?.close();
  await server?.close();
  fs.rmSync(home, { recursive: true, force: true });
});

describe('loupe data commands', () => {
  it('login checks the key pair with the server, then stores it in a 0600 file that later commands use', async () => {
    const login = json(await loupe(['login', '--url', server.url, '--api-key', user.api_key, '--json'], { LOUPE_API_SECRET: user.api_secret }));
    expect(login).toEqual({ url: server.url, user_id: user.user_id, email: user.email, config_path: configFile });
    expect(fs.statSync(configFile).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(configFile, 'utf8'))).toEqual({ url: server.url, api_key: user.api_key, api_secret: user.api_secret });
  });

  it('datasets create uploads a folder recursively, skips what is not media, and waits for READY', { timeout: 60_000 }, async () => {
    const created = json(await loupe(['datasets', 'create', 'cli photos', photos, '--wait', '--json']));
    expect(created).toMatchObject({ files: 7, uploaded: 7, skipped: 1, resumed: false, dataset: { display_name: 'cli photos', status_new: 'READY', n_images: 7, n_videos: 0 } });
    photosId = created.dataset.id;
    expect((await server.api(user.token, 'GET', `/api/v1/dataset/${photosId}`)).body).toMatchObject({ status_new: 'READY', n_images: 7 });
    expect(fs.existsSync(path.join(home, 'config', 'uploads', `${photosId}.json`))).toBe(false);
  });

  it('resumes an upload interrupted by Ctrl-C without sending a file twice', { timeout: 60_000 }, async () => {
    const held = proxy.holdAfter(1);
    const child = spawn(process.execPath, ['bin/loupe.js', 'datasets', 'create', 'cli resumed', generated, '--batch-size', '2', '--json'], {
      env: { ...baseEnv, LOUPE_CONFIG: configFile, LOUPE_URL: proxy.url },
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await held;
    const id = /dataset ([0-9a-f-]{36})/.exec(stderr)?.[1];
    expect(id, stderr).toBeDefined();
    generatedId = id!;
    const stateFile = path.join(home, 'config', 'uploads', `${generatedId}.json`);
    // The first batch is accepted and saved before the second is sent.
    await waitFor(async () => (fs.existsSync(stateFile) && JSON.parse(fs.readFileSync(stateFile, 'utf8')).state.sent.length === 2 ? true : undefined));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toContain(`loupe datasets resume ${generatedId}`);
    proxy.release();

    const resumed = json(await loupe(['datasets', 'resume', generatedId, '--wait', '--json'], { LOUPE_URL: proxy.url }));
    expect(resumed).toMatchObject({ files: 6, uploaded: 4, skipped: 0, resumed: true, dataset: { id: generatedId, status_new: 'READY', n_images: 6 } });
    const sent = proxy.accepted.flat().sort();
    expect(sent).toEqual(fs.readdirSync(generated).sort());
    expect(fs.existsSync(stateFile)).toBe(false);
  });

  it('add-media uploads a folder as one task and waits for it', { timeout: 60_000 }, async () => {
    const added = json(await loupe(['add-media', photosId, more, '--wait', '--json']));
    expect(added).toMatchObject({ task_id: expect.stringMatching(/^[0-9a-f-]{36}$/), dataset: { id: photosId, status_new: 'PARTIAL INDEX', n_images: 9 } });
    const task = await server.api(user.token, 'GET', `/api/v1/tasks?dataset_id=${photosId}&task_type=MEDIA_ADDITION`);
    expect(task.body.tasks).toMatchObject([{ task_id: added.task_id, status: 'COMPLETED' }]);
  });

  it('explore prints the Explore page, tasks list the tasks', async () => {
    const [explored, listed] = await Promise.all([loupe(['explore', photosId, '--level', '4', '--json']), loupe(['tasks', 'list', '--dataset', generatedId, '--json'])]);
    const page = json(explored);
    expect(page).toMatchObject({ threshold: 4, page_number: 0 });
    expect(page.clusters.reduce((n: number, c: { n_media: number }) => n + c.n_media, 0)).toBe(9);
    expect(json(listed)).toMatchObject([{ dataset_id: generatedId, task_type: 'DATASET_CREATION', status: 'COMPLETED' }]);
  });

  it('export waits for the archive and downloads it', { timeout: 60_000 }, async () => {
    const out = path.join(home, 'out.zip');
    const done = json(await loupe(['export', generatedId, '--format', 'parquet', '--images', '-o', out, '--json']));
    expect(done).toEqual({ export_task_id: expect.any(String), path: out, bytes: fs.statSync(out).size });
    const entries = await readZip(fs.readFileSync(out));
    const names = [...entries.keys()];
    expect(names.filter((n) => n.endsWith('.parquet'))).toHaveLength(1);
    expect(names.filter((n) => n.startsWith('images/'))).toHaveLength(6);
  });

  it('snapshots create and list; deleting the current one is a conflict (exit 4)', async () => {
    const snap = json(await loupe(['snapshots', 'create', generatedId, 'before cleaning', '--json']));
    expect(snap).toMatchObject({ snapshot_name: 'before cleaning', is_current: true, reason: 'manual', n_images: 6 });
    const [listed, deleted] = await Promise.all([loupe(['snapshots', 'list', generatedId, '--json']), loupe(['snapshots', 'delete', generatedId, snap.snapshot_id])]);
    expect(json(listed)[0]).toMatchObject({ snapshot_id: snap.snapshot_id, is_current: true });
    expect(deleted).toEqual({
      code: 4,
      stdout: '',
      stderr: 'The current snapshot cannot be deleted; create a new snapshot first\n',
    });
  });

  it('exits 1 on a refused key, 2 on a usage error, 3 on an unknown dataset, and lists the commands in --help', async () => {
    const [refused, usage, unknown, help] = await Promise.all([
      loupe(['datasets', 'list'], { LOUPE_API_SECRET: 'not the secret' }),
      loupe(['datasets', 'create', 'only-a-name']),
      loupe(['datasets', 'show', '00000000-0000-4000-8000-000000000000']),
      loupe(['--help']),
    ]);
    expect(refused).toEqual({ code: 1, stdout: '', stderr: 'Invalid token: signature verification failed\n' });
    expect(usage).toMatchObject({ code: 2, stdout: '', stderr: expect.stringContaining("missing required argument 'dir'") });
    expect(unknown).toEqual({ code: 3, stdout: '', stderr: 'Dataset not found\n' });
    expect(help.code).toBe(0);
    for (const command of ['login', 'logout', 'datasets', 'add-media', 'explore', 'duplicates', 'snapshots', 'export', 'enrich', 'tasks', 'notifications', 'user', 'key', 'token']) {
      expect(help.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
    }
  });
});
