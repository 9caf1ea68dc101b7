import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ReadPriority } from '../../src/http/read-priority.js';
import { type TestServer, type TestUser, startTestServer } from '../support/server.js';

/** Whether `promise` has settled by the time the microtask and timer queues have run once. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

describe('ReadPriority', () => {
  afterEach(() => vi.useRealTimers());

  it('lets work go at once when no read is being answered, and holds it while one is', async () => {
    vi.useFakeTimers();
    const priority = new ReadPriority();
    expect(priority.whenClear()).toBeNull();
    const release = priority.enter();
    const waiting = priority.whenClear()!;
    expect(await settled(waiting)).toBe(false);
    release();
    expect(await settled(waiting)).toBe(true);
    expect(priority.whenClear()).toBeNull();
  });

  it('waits for the last of several reads, and counts a release once however often it is called', async () => {
    vi.useFakeTimers();
    const priority = new ReadPriority();
    const [first, second] = [priority.enter(), priority.enter()];
    const waiting = priority.whenClear()!;
    first();
    first();
    expect(await settled(waiting)).toBe(false);
    second();
    expect(await settled(waiting)).toBe(true);
  });

  it('holds work at most 100 ms, then lets it pass for 100 ms, and counts a read answered after 250 ms', async () => {
    vi.useFakeTimers();
    const priority = new ReadPriority();
    priority.enter();
    const waiting = priority.whenClear()!;
    await vi.advanceTimersByTimeAsync(99);
    expect(await settled(waiting)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(waiting)).toBe(true);
    // The read is still being answered, but work held for the longest wait now passes for as long again.
    expect(priority.whenClear()).toBeNull();
    await vi.advanceTimersByTimeAsync(99);
    expect(priority.whenClear()).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(priority.whenClear()).not.toBeNull();
    await vi.advanceTimersByTimeAsync(50);
    expect(priority.whenClear()).toBeNull();
  });

  it('passes an upload stream through unchanged, each chunk after the reads', async () => {
    const priority = new ReadPriority();
    const release = priority.enter();
    const chunks: Buffer[] = [];
    const gate = Readable.from([Buffer.from('ab'), Buffer.from('cd')]).pipe(priority.gate());
    gate.on('data', (chunk: Buffer) => chunks.push(chunk));
    await sleep(20);
    expect(chunks).toEqual([]);
    release();
    await new Promise((resolve) => gate.once('end', resolve));
    expect(Buffer.concat(chunks).toString()).toBe('abcd');
  });
});

describe('reads first, through the API', () => {
  let server: TestServer;
  let user: TestUser;

  beforeAll(async () => {
    server = await startTestServer();
    user = await server.createUser();
  });
  afterAll(() => server.close());

  it('starts a write once the reads being answered are, and a read at once', async () => {
    const release = server.loupe.app!.readPriority.enter();
    let written = false;
    const write = server.api(user.token, 'GET', '/api/v1/ingestion/new_dataset?dataset_name=held').then((r) => {
      written = true;
      return r;
    });
    // Set before the server sees the write, so it fires before the write's longest wait (100 ms) ends.
    const heldAfter40Ms = sleep(40).then(() => !written);
    const read = await server.api(user.token, 'GET', '/api/v1/datasets');
    expect(read.status).toBe(200);
    expect(await heldAfter40Ms).toBe(true);
    release();
    expect((await write).status).toBe(200);
    const listed = await server.api(user.token, 'GET', '/api/v1/datasets');
    expect(listed.body.map((d: { display_name: string }) => d.display_name)).toContain('held');
  });
});
