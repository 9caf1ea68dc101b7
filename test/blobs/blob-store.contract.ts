import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BlobStore, BlobNotFoundError, BlobTooLargeError, INSPECT_HEAD_BYTES } from '../../src/adapters/blobs/blob-store.js';

export interface BlobStoreHarness {
  store: BlobStore;
  cleanup(): Promise<void>;
  /** Unfinished uploads the store still holds (temp files); every failed put must leave none. */
  tempFiles?(): Promise<string[]>;
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** `total` bytes made chunk by chunk, hashed as they go, so the test itself never holds them all. */
function generated(total: number, chunkSize = 64 * 1024) {
  const hash = createHash('sha256');
  const block = randomBytes(chunkSize);
  let sent = 0;
  const stream = new Readable({
    read() {
      if (sent >= total) return void this.push(null);
      const chunk = Buffer.from(block.subarray(0, Math.min(chunkSize, total - sent)));
      chunk.writeUInt32BE(sent >>> 0, 0); // every chunk differs, so dedup-friendly repetition cannot hide bugs
      sent += chunk.length;
      hash.update(chunk);
      this.push(chunk);
    },
  });
  return { stream, digest: () => hash.digest('hex') };
}

/** Sends `prefix`, then fails the way a dropped connection does. */
function cutAfter(prefix: Buffer, error: Error): Readable {
  let done = false;
  return new Readable({
    read() {
      if (done) return;
      done = true;
      this.push(prefix);
      setTimeout(() => this.destroy(error), 5);
    },
  });
}

export function blobStoreContract(name: string, make: () => Promise<BlobStoreHarness>) {
  describe(`BlobStore contract: ${name}`, () => {
    let harness: BlobStoreHarness;
    let store: BlobStore;
    beforeEach(async () => {
      harness = await make();
      store = harness.store;
    });
    afterEach(() => harness.cleanup());

    async function expectNothingLeft(...hashes: string[]) {
      for (const hash of hashes) expect(await store.stat(hash)).toBeNull();
      if (harness.tempFiles) expect(await harness.tempFiles()).toEqual([]);
    }

    it('round-trips bytes and names them by their sha256', async () => {
      const data = randomBytes(100_000);
      const stored = await store.put(Readable.from([data.subarray(0, 1234), data.subarray(1234)]));
      expect(stored).toEqual({ hash: sha256(data), size: data.length });
      expect(await store.stat(stored.hash)).toEqual({ size: data.length });
      expect((await readAll(await store.open(stored.hash))).equals(data)).toBe(true);
      expect(await store.putBuffer(data)).toEqual(stored);
    });

    it('stores identical bytes once, even when put concurrently', async () => {
      const data = randomBytes(50_000);
      const [a, b] = await Promise.all([store.putBuffer(data), store.put(Readable.from([data]))]);
      expect(b).toEqual(a);
      expect(await store.putBuffer(data)).toEqual(a);
      await store.delete(a.hash);
      expect(await store.stat(a.hash)).toBeNull();
      await expectNothingLeft();
    });

    it('writes in two steps: the blob once hashed and written, in place once stored; many may settle at once', async () => {
      const data = Array.from({ length: 20 }, () => randomBytes(30_000));
      const written = [];
      for (const bytes of data) written.push(await store.write(Readable.from([bytes])));
      expect(written.map((w) => w.blob)).toEqual(data.map((bytes) => ({ hash: sha256(bytes), size: bytes.length })));
      await Promise.all(written.map((w) => w.stored));
      for (const [i, { blob }] of written.entries()) expect((await readAll(await store.open(blob.hash))).equals(data[i]!)).toBe(true);
      await expectNothingLeft();
    });

    it('rejects a write over maxBytes before it returns, and keeps nothing', async () => {
      const data = randomBytes(10_000);
      await expect(store.write(Readable.from([data]), { maxBytes: 9_999 })).rejects.toBeInstanceOf(BlobTooLargeError);
      await expectNothingLeft(sha256(data));
    });

    it('reads inclusive byte ranges', async () => {
      const data = randomBytes(1000);
      const { hash } = await store.putBuffer(data);
      const range = async (start: number, end: number) => readAll(await store.open(hash, { start, end }));
      expect(await range(0, 0)).toEqual(data.subarray(0, 1));
      expect(await range(100, 199)).toEqual(data.subarray(100, 200));
      expect(await range(999, 999)).toEqual(data.subarray(999));
      expect(await range(0, 999)).toEqual(data);
      await expect(store.open(hash, { start: 5, end: 4 })).rejects.toThrow(RangeError);
      await expect(store.open(hash, { start: -1, end: 4 })).rejects.toThrow(RangeError);
    });

    it('reads in chunks of at most the size asked for, a range included', async () => {
      const data = randomBytes(5000);
      const { hash } = await store.putBuffer(data);
      const chunks = async (stream: Readable) => {
        const out: Buffer[] = [];
        for await (const chunk of stream) out.push(chunk as Buffer);
        return out;
      };
      const whole = await chunks(await store.open(hash, undefined, 1024));
      expect(whole.map((c) => c.length)).toEqual([1024, 1024, 1024, 1024, 904]);
      expect(Buffer.concat(whole)).toEqual(data);
      const one = await chunks(await store.open(hash, { start: 0, end: 4999 }, 5000));
      expect(one.map((c) => c.length)).toEqual([5000]);
      expect(one[0]).toEqual(data);
    });

    it('stores an empty stream', async () => {
      const stored = await store.put(Readable.from([]));
      expect(stored).toEqual({ hash: sha256(Buffer.alloc(0)), size: 0 });
      expect(await store.stat(stored.hash)).toEqual({ size: 0 });
      expect((await readAll(await store.open(stored.hash))).length).toBe(0);
    });

    it('streams 20 MB without holding it in memory', async () => {
      const total = 20 * 1024 * 1024;
      const { stream, digest } = generated(total);
      const before = process.memoryUsage().rss;
      let peak = before;
      const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
      const stored = await store.put(stream).finally(() => clearInterval(sample));
      peak = Math.max(peak, process.memoryUsage().rss);
      expect(stored).toEqual({ hash: digest(), size: total });
      expect(peak - before).toBeLessThan(64 * 1024 * 1024);
      const reread = createHash('sha256');
      for await (const chunk of await store.open(stored.hash)) reread.update(chunk as Buffer);
      expect(reread.digest('hex')).toBe(stored.hash);
    });

    it('rejects a stream over maxBytes and keeps nothing', async () => {
      const data = randomBytes(10_001);
      const put = store.put(Readable.from([data.subarray(0, 6000), data.subarray(6000)]), { maxBytes: 10_000 });
      await expect(put).rejects.toBeInstanceOf(BlobTooLargeError);
      await expect(put).rejects.toMatchObject({ limit: 10_000 });
      await expectNothingLeft(sha256(data), sha256(data.subarray(0, 10_000)));
      expect(await store.put(Readable.from([data.subarray(0, 10_000)]), { maxBytes: 10_000 })).toMatchObject({ size: 10_000 });
    });

    it('keeps nothing when the source fails midway', async () => {
      const prefix = randomBytes(70_000);
      const cut = new Error('connection reset');
      await expect(store.put(cutAfter(prefix, cut))).rejects.toBe(cut);
      await expectNothingLeft(sha256(prefix));
    });

    it('aborts midway with the signal reason and keeps nothing', async () => {
      const controller = new AbortController();
      const reason = new Error('client went away');
      let sent = 0;
      const endless = new Readable({
        read() {
          sent += 16 * 1024;
          if (sent > 256 * 1024) controller.abort(reason);
          setTimeout(() => this.push(randomBytes(16 * 1024)), 1);
        },
      });
      await expect(store.put(endless, { signal: controller.signal })).rejects.toBe(reason);
      expect(endless.destroyed).toBe(true);
      await expectNothingLeft();
    });

    it('rejects at once when the signal is already aborted', async () => {
      const reason = new Error('cancelled');
      const data = randomBytes(100);
      await expect(store.put(Readable.from([data]), { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
      await expectNothingLeft(sha256(data));
    });

    it('hands inspect the first 4100 bytes, or all of a smaller file, once', async () => {
      const data = randomBytes(10_000);
      const heads: Buffer[] = [];
      await store.put(Readable.from([data.subarray(0, 3000), data.subarray(3000, 3500), data.subarray(3500)]), {
        inspect: (head) => void heads.push(Buffer.from(head)),
      });
      expect(heads).toEqual([data.subarray(0, INSPECT_HEAD_BYTES)]);
      const tiny = randomBytes(10);
      heads.length = 0;
      await store.putBuffer(tiny);
      await store.put(Readable.from([tiny]), { inspect: (head) => void heads.push(Buffer.from(head)) });
      expect(heads).toEqual([tiny]);
    });

    it('abandons the put when inspect throws', async () => {
      const data = randomBytes(50_000);
      const refused = new Error('not an image');
      const inspect = (): never => {
        throw refused;
      };
      await expect(store.put(Readable.from([data]), { inspect })).rejects.toBe(refused);
      await expect(store.put(Readable.from([data.subarray(0, 20)]), { inspect })).rejects.toBe(refused);
      await expectNothingLeft(sha256(data), sha256(data.subarray(0, 20)));
    });

    it('reports unknown blobs as not found', async () => {
      const unknown = sha256(Buffer.from('never stored'));
      expect(await store.stat(unknown)).toBeNull();
      await expect(store.open(unknown)).rejects.toBeInstanceOf(BlobNotFoundError);
      await expect(store.localFile(unknown)).rejects.toBeInstanceOf(BlobNotFoundError);
    });

    it('rejects strings that are not hashes before touching storage', async () => {
      const { hash } = await store.putBuffer(Buffer.from('x'));
      for (const bad of ['../../etc/passwd', 'xyz', '', hash.toUpperCase(), `${hash.slice(0, 62)}/.`, `${hash}0`]) {
        await expect(store.stat(bad), bad).rejects.toThrow(/invalid blob hash/);
        await expect(store.open(bad), bad).rejects.toBeInstanceOf(BlobNotFoundError);
        await expect(store.localFile(bad), bad).rejects.toThrow(/invalid blob hash/);
        await expect(store.delete(bad), bad).rejects.toThrow(/invalid blob hash/);
      }
      expect(await store.stat(hash)).toEqual({ size: 1 });
    });

    it('deletes idempotently', async () => {
      const { hash } = await store.putBuffer(randomBytes(100));
      await store.delete(hash);
      await store.delete(hash);
      expect(await store.stat(hash)).toBeNull();
      await expect(store.open(hash)).rejects.toBeInstanceOf(BlobNotFoundError);
    });

    it('gives a local file with the exact bytes', async () => {
      const data = randomBytes(30_000);
      const { hash } = await store.putBuffer(data);
      const local = await store.localFile(hash);
      expect((await fs.readFile(local.path)).equals(data)).toBe(true);
      await local.release();
      expect(await store.stat(hash)).toEqual({ size: data.length }); // release frees the copy, not the blob
    });
  });
}
