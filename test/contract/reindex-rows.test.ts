import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyRowsOf } from '../../src/adapters/db/binary-copy.js';
import { readGraphFile } from '../../src/adapters/vectors/graph-file.js';
import { IndexingRepo } from '../../src/modules/indexing/indexing.repo.js';
import { type TestServer, type TestUser, startTestServer } from '../support/server.js';
import { type UploadFile, createDataset, form, photo, waitForDataset } from '../support/ingest.js';
import { PHOTO_EDITS } from '../support/photo-edits.js';

/**
 * A reindex forks the head without its index results and writes each row once; the rows it leaves must be the
 * ones a dataset created with the same media at once gets (the exact graph below 4,000 media is deterministic).
 */

let server: TestServer;
let owner: TestUser;

const waitStatus = (id: string, statuses: string[]) => waitForDataset(server, owner, id, statuses);
const dogHalf = async (): Promise<UploadFile> => ({ name: 'dog-half.jpg', bytes: await PHOTO_EDITS['half-q30']!(photo('dog.jpg').bytes) });

async function readyDataset(files: UploadFile[]): Promise<string> {
  const { datasetId, dataset: created } = await createDataset(server, owner, 'reindex-rows', [files]);
  if (created.status_new !== 'READY') throw new Error(`dataset creation ended ${created.status_new}: ${created.fatal_error_msg}`);
  return datasetId;
}

interface IndexedRow {
  file_name: string;
  ordinal: number | null;
  l0: string | null;
  l4: string | null;
  uniqueness_score: number | null;
  nn_similarity: number | null;
  is_outlier: boolean;
  duplicate_group: string | null;
}

/** The head's rows with their index results, in media-id order (the ordinals' order). */
async function headRows(id: string): Promise<IndexedRow[]> {
  const { rows } = await sql<IndexedRow>`select m.file_name, vm.ordinal, vm.cluster_l0 as l0, vm.cluster_l4 as l4, vm.uniqueness_score,
      vm.nn_similarity, vm.is_outlier, vm.duplicate_group
    from datasets d join version_media vm on vm.version_id = d.head_version_id join media m on m.id = vm.media_id
    where d.id = ${id}::uuid order by vm.media_id`.execute(server.loupe.container.database.db);
  return rows;
}

/** The head index's stored k-NN graph (its blob's hash and lists), null when it has none. */
async function headGraph(id: string) {
  const { rows } = await sql<{ hash: string | null }>`select i.graph_blob_hash as hash from datasets d join version_indexes i on i.version_id = d.head_version_id
    where d.id = ${id}::uuid`.execute(server.loupe.container.database.db);
  const hash = rows[0]?.hash ?? null;
  if (!hash) return null;
  const local = await server.loupe.container.blobs.localFile(hash);
  try {
    return { hash, ...(await readGraphFile(local.path)) };
  } finally {
    await local.release();
  }
}

/** The rows by file name, with each cluster id replaced by the sorted file names of its members (ids differ per version). */
function comparable(rows: IndexedRow[]) {
  const members = (key: 'l0' | 'l4' | 'duplicate_group', id: string | null) =>
    id === null ? null : rows.filter((r) => r[key] === id).map((r) => r.file_name).sort().join(',');
  return Object.fromEntries(
    rows.map((r) => [
      r.file_name,
      { l0: members('l0', r.l0), l4: members('l4', r.l4), uniqueness: r.uniqueness_score, nearest: r.nn_similarity, outlier: r.is_outlier, duplicates: members('duplicate_group', r.duplicate_group) },
    ]),
  );
}

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.createUser();
}, 60_000);
afterAll(() => server?.close());

describe('reindex', () => {
  it('writes every row once, with the results a dataset created with the same media at once has', async () => {
    const half = await dogHalf();
    const first = [photo('dog.jpg'), photo('horses.jpg'), photo('person.jpg'), photo('kite.jpg')];
    const added = [half, photo('coffee.png')];
    const reindexed = await readyDataset(first);
    expect((await server.api(owner.token, 'POST', `/api/v1/dataset/${reindexed}/add_media`, form(added.map((f) => ({ ...f, field: 'files' }))))).status).toBe(202);
    expect(await waitStatus(reindexed, ['PARTIAL INDEX', 'ERROR', 'READY'])).toMatchObject({ status_new: 'PARTIAL INDEX' });
    const before = await headRows(reindexed);
    // PARTIAL INDEX keeps the full index's graph: it covers the first four, the attached two are searched.
    const partialGraph = await headGraph(reindexed);
    expect({ n: partialGraph?.n, k: partialGraph?.k }).toEqual({ n: 4, k: 10 });
    expect((await server.api(owner.token, 'POST', `/api/v1/dataset/${reindexed}/reindex`)).status).toBe(202);
    expect(await waitStatus(reindexed, ['READY', 'ERROR'])).toMatchObject({ status_new: 'READY', n_images: 6 });

    const rows = await headRows(reindexed);
    expect(rows.map((r) => r.ordinal)).toEqual([0, 1, 2, 3, 4, 5]);
    for (const r of rows) {
      expect(r.l0).toEqual(expect.any(String));
      expect(r.l4).toEqual(expect.any(String));
      expect(r.uniqueness_score).toBeGreaterThanOrEqual(0);
    }
    expect(new Set(rows.map((r) => r.l0)).size).toBeLessThan(6);
    // The reindex wrote its own clusters: none of the PARTIAL INDEX head's cluster ids is left.
    const oldIds = new Set(before.map((r) => r.l0));
    expect(rows.filter((r) => oldIds.has(r.l0))).toEqual([]);

    const atOnce = await readyDataset([...first, ...added]);
    expect(comparable(rows)).toEqual(comparable(await headRows(atOnce)));
    expect(comparable(rows)['dog-half.jpg']!.duplicates).toBe('dog-half.jpg,dog.jpg');

    // The reindex stored its own graph: each item's list by ordinal, best first (the half-size copy's is its original).
    const graph = (await headGraph(reindexed))!;
    expect(graph.hash).not.toBe(partialGraph!.hash);
    expect({ n: graph.n, k: graph.k }).toEqual({ n: 6, k: 10 });
    const byOrdinal = new Map(rows.map((r) => [r.ordinal!, r.file_name]));
    const copy = rows.find((r) => r.file_name === 'dog-half.jpg')!.ordinal!;
    expect(byOrdinal.get(graph.neighbours[copy * 10]!)).toBe('dog.jpg');
    expect(Array.from(graph.neighbours.subarray(copy * 10, copy * 10 + 10)).filter((o) => o >= 0).sort()).toEqual([0, 1, 2, 3, 4, 5].filter((o) => o !== copy));
  });

  it('reads a version\'s vectors again after a read was aborted, on the same pool', async () => {
    const id = await readyDataset([photo('dog.jpg'), photo('horses.jpg'), photo('person.jpg')]);
    const { db, pool } = server.loupe.container.database;
    const { head_version_id: versionId, embedding_config: config } = await db.selectFrom('datasets').select(['head_version_id', 'embedding_config']).where('id', '=', id).executeTakeFirstOrThrow();
    const model = `${config!.model}@${config!.version}`;
    const repo = new IndexingRepo(db, pool);
    const total = await repo.countMembers(versionId!);
    expect(total).toBe(3);
    const aborted = new AbortController();
    aborted.abort(new Error('stopped by the test'));
    await expect(repo.loadVectors(versionId!, model, config!.dimensions, total, async () => {}, aborted.signal)).rejects.toThrow('stopped by the test');
    // Aborted once the COPY is sent (PostgreSQL's answer takes a turn of the event loop): its connection is dropped, not handed back mid-protocol.
    const midway = new AbortController();
    const reading = repo.loadVectors(versionId!, model, config!.dimensions, total, async () => {}, midway.signal);
    setImmediate(() => midway.abort(new Error('stopped while reading')));
    await expect(reading).rejects.toThrow('stopped while reading');
    const wrongSize = repo.loadVectors(versionId!, model, config!.dimensions + 1, total, async () => {}, new AbortController().signal);
    await expect(wrongSize).rejects.toThrow(`does not have ${config!.dimensions + 1} dimensions`);

    // A reader that stops after one row leaves the COPY mid-protocol: its connection is dropped, and the pool's next
    // queries (every connection it then hands out) answer.
    for await (const row of copyRowsOf<{ n: number }>(pool, 'select g as n from generate_series(1, 100000) g', [{ key: 'n', type: 'int4' }], new AbortController().signal)) {
      expect(row.n).toBe(1);
      break;
    }
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => pool.query<{ n: number }>('select $1::int as n', [i])));
    expect(answers.map((a) => a.rows[0]!.n)).toEqual(Array.from({ length: 12 }, (_, i) => i));

    const read = await repo.loadVectors(versionId!, model, config!.dimensions, total, async () => {}, new AbortController().signal);
    expect(read.mediaIds).toEqual([...read.mediaIds].sort());
    expect(read.mediaIds).toHaveLength(3);
    expect(read.vectors).toHaveLength(3 * config!.dimensions);
    const { rows } = await sql<{ vector: Buffer }>`select vector from media_embeddings where media_id = ${read.mediaIds[1]}::uuid and model = ${model}`.execute(db);
    expect(Array.from(read.vectors.subarray(config!.dimensions, 2 * config!.dimensions))).toEqual(Array.from(new Float32Array(new Uint8Array(rows[0]!.vector).buffer)));
    expect(pool.waitingCount).toBe(0);
  });
});
