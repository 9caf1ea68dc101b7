import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import { from as copyFrom } from 'pg-copy-streams';
import type { Loupe } from '../../src/server.js';
import { generate } from './synthetic-vectors.js';

/** Seed of the synthetic vectors: regenerate(n, d) gives the same vectors again (for the recall check). */
export const SCALE_SEED = 2023;

/** The seeded media's file names: synthetic-1.jpg … synthetic-N.jpg, as bench/lib/metadata-csv.ts keys its rows. */
export const seededName = (i: number): string => `synthetic-${i + 1}.jpg`;

/** The generated index of a seeded file name, -1 for any other name. */
export function seededIndex(fileName: string): number {
  const m = /^synthetic-(\d+)\.jpg$/.exec(fileName);
  return m ? Number(m[1]) - 1 : -1;
}

export interface PlantedTruth {
  /** Flat (duplicate, source) pairs of generated indexes. */
  duplicates: Int32Array;
  isolated: Int32Array;
  exactCopies: number;
  centres: number;
  /** Per generated index, the centre it was drawn around (-1: isolated). */
  centreOf: Int32Array;
}

/** Streams `count` lines from `line(i)` into `COPY <target> FROM STDIN` (text format) on one pooled client, in ~1 MB chunks. */
export async function copyLines(loupe: Loupe, target: string, count: number, line: (i: number) => string): Promise<void> {
  const client = await loupe.container.database.pool.connect();
  try {
    async function* chunks() {
      let chunk = '';
      for (let i = 0; i < count; i++) {
        chunk += line(i);
        if (chunk.length > 1 << 20) {
          yield chunk;
          chunk = '';
        }
      }
      if (chunk) yield chunk;
    }
    await pipeline(Readable.from(chunks()), client.query(copyFrom(`copy ${target} from stdin`)));
  } finally {
    client.release();
  }
}

/**
 * Writes `count` synthetic IMAGE media (bench/lib/synthetic-vectors.ts generate(): Gaussian clusters, 2 %
 * planted duplicates, 1 % isolated points), their `model` embeddings and their membership of the dataset's
 * head version straight into PostgreSQL with COPY, then sets the dataset to PARTIAL INDEX, the status a
 * reindex starts from. The vectors are dropped before returning; regenerate() gives them back.
 */
export async function seedScaleMedia(loupe: Loupe, datasetId: string, count: number): Promise<{ truth: PlantedTruth; model: string; dimensions: number }> {
  const { db } = loupe.container.database;
  const dataset = await db.selectFrom('datasets').select(['head_version_id', 'embedding_config', 'n_images']).where('id', '=', datasetId).executeTakeFirstOrThrow();
  if (!dataset.head_version_id || !dataset.embedding_config) throw new Error('the dataset has no head version or embedding config');
  const { dimensions: d } = dataset.embedding_config;
  const model = `${dataset.embedding_config.model}@${dataset.embedding_config.version}`;
  let data: ReturnType<typeof generate> | null = generate(count, d, SCALE_SEED);
  const { vectors, phashes } = data;
  const ids = Array.from({ length: count }, () => randomUUID());
  const line = (cells: string[]): string => `${cells.join('\t')}\n`;
  await copyLines(loupe, 'media (id, blob_hash, media_type, file_name, format, mime, size, width, height, phash)', count, (i) =>
    line([ids[i]!, `bench-scale-${i}`, 'IMAGE', seededName(i), 'jpeg', 'image/jpeg', String(150_000 + (i % 50_000)), '1024', '768', phashes[i]!]),
  );
  await copyLines(loupe, 'media_embeddings (media_id, model, vector)', count, (i) =>
    line([ids[i]!, model, `\\\\x${Buffer.from(vectors.buffer, vectors.byteOffset + i * d * 4, d * 4).toString('hex')}`]),
  );
  await copyLines(loupe, 'version_rows (version_id, media_id)', count, (i) => line([dataset.head_version_id!, ids[i]!]));
  await db.updateTable('datasets').set({ status_new: 'PARTIAL INDEX', n_images: dataset.n_images + count }).where('id', '=', datasetId).execute();
  const truth = { duplicates: data.duplicates, isolated: data.isolated, exactCopies: data.exactCopies, centres: data.centres, centreOf: data.centreOf };
  data = null;
  await sql`vacuum analyze media, media_embeddings, version_rows`.execute(db);
  await sql`checkpoint`.execute(db);
  return { truth, model, dimensions: d };
}

/** The seeded media's ids of a version by generated index (seededIndex of their file names). */
export async function seededMediaIds(db: Loupe['container']['database']['db'], versionId: string, count: number): Promise<string[]> {
  const { rows } = await sql<{ id: string; file_name: string }>`select m.id, m.file_name from version_rows r join media m on m.id = r.media_id
    where r.version_id = ${versionId}::uuid and m.file_name like 'synthetic-%'`.execute(db);
  const ids = new Array<string>(count);
  for (const m of rows) {
    const i = seededIndex(m.file_name);
    if (i >= 0 && i < count) ids[i] = m.id;
  }
  return ids;
}

/** The seeded vectors again, row i = generated item i (same seed as seedScaleMedia). */
export function regenerate(count: number, d: number): Float32Array {
  return generate(count, d, SCALE_SEED).vectors;
}

/** `count` notifications for the user on the dataset (saved-view alerts, a tenth unread), by INSERT ... SELECT. */
export async function seedNotifications(loupe: Loupe, userId: string, datasetId: string, count: number): Promise<void> {
  const { db } = loupe.container.database;
  await sql`insert into notifications (user_id, dataset_id, entity_type, entity_id, batch_id, title, message, metadata, read_at, created_at)
    select ${userId}::uuid, ${datasetId}::uuid, 'saved_view', gen_random_uuid(), b, 'New results in "bench ' || (g % 7) || '"',
      g % 50 || ' new media in bench-scale match the saved view "bench ' || (g % 7) || '"',
      jsonb_build_object('batch_id', b, 'is_alert', true, 'view_name', 'bench ' || (g % 7), 'dataset_name', 'bench-scale', 'result_count', g % 50),
      case when g % 10 = 0 then null else now() end, now() - g * interval '1 second'
    from (select g, gen_random_uuid() as b from generate_series(1, ${count}::int) g) s`.execute(db);
  await sql`analyze notifications`.execute(db);
}
