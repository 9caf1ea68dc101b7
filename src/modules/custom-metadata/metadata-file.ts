import type { BlobStore } from '../../adapters/blobs/blob-store.js';
import {
  type TableFormat,
  type TableRow,
  fileAsyncBuffer,
  parquetColumns,
  readCsvRows,
  readJsonLines,
  readParquetRows,
} from '../../adapters/tables/table-rows.js';
import { csvRecords } from '../../adapters/tables/csv-records.js';
import { textRowReader } from '../../core/custom-field-text.js';
import { type FieldPlan, type FieldTypes, type KeyColumn, SAMPLE_ROWS, planFields, readRow } from '../../core/custom-fields.js';

/** An uploaded metadata file: where it is stored and how it reads. */
export interface MetadataFile {
  blobHash: string;
  format: TableFormat;
  size: number;
}

/** CSV cells are text to be typed; JSON lines and Parquet carry typed values. */
export const readsText = (format: TableFormat) => format === 'csv';

/**
 * The file's rows, streamed from the blob store (Parquet through a local file, one row group at a time).
 * `onHeader` gets the column names before the first row where the format has a header (CSV, Parquet).
 */
export async function* metadataRows(blobs: BlobStore, file: MetadataFile, onHeader: (columns: string[]) => void, onBytes?: (n: number) => void): AsyncGenerator<TableRow> {
  if (file.format === 'parquet') {
    const local = await blobs.localFile(file.blobHash);
    const buffer = await fileAsyncBuffer(local.path).catch(async (err: unknown) => {
      await local.release();
      throw err;
    });
    try {
      onHeader(await parquetColumns(buffer));
      yield* readParquetRows(buffer);
    } finally {
      await buffer.close();
      await local.release();
    }
    return;
  }
  const stream = await blobs.open(file.blobHash);
  const body = onBytes ? counted(stream, onBytes) : stream;
  try {
    if (file.format === 'csv') yield* readCsvRows(body, onHeader);
    else yield* readJsonLines(body);
  } finally {
    stream.destroy();
  }
}

/** Reads the header and the first SAMPLE_ROWS rows and fixes the key column and field types (or says why not). */
export async function planFile(blobs: BlobStore, file: MetadataFile, existing: FieldTypes): Promise<FieldPlan> {
  let columns: string[] | null = null;
  const sample: Array<Record<string, unknown>> = [];
  const seen = new Set<string>();
  for await (const row of metadataRows(blobs, file, (c) => (columns = c))) {
    if ('values' in row) {
      sample.push(row.values);
      for (const k of Object.keys(row.values)) seen.add(k);
    }
    if (sample.length >= SAMPLE_ROWS) break;
  }
  // JSON lines have no header: the columns are those the sample's objects use.
  const header = columns ?? [...seen];
  if (header.length === 0) return { ok: false, problem: 'the file has no columns (is it empty?)' };
  return planFields(header, sample, readsText(file.format), existing);
}

/** Where checked rows go, one by one, as they are read; `batchDone` is awaited between batches (to wait for the database). */
export interface CheckedRows {
  stage(line: number, key: string, fields: string): void;
  reject(line: number, reason: string): void;
  batchDone(): Promise<void>;
}

/** JSON lines and Parquet rows come one by one: a batch is this many. */
const BATCH = 1_000;

/** Reads the file's rows, checks and types them against the request's plan and hands them to `to` (CSV: a batch per chunk read). */
export async function checkRows(blobs: BlobStore, file: MetadataFile, plan: { key: KeyColumn; types: FieldTypes }, to: CheckedRows, onBytes: (n: number) => void): Promise<void> {
  if (file.format !== 'csv') {
    let batch = 0;
    for await (const row of metadataRows(blobs, file, () => {}, onBytes)) {
      if ('error' in row) to.reject(row.line, row.error);
      else {
        const read = readRow(row.values, plan.key, plan.types, false);
        if (read.ok) to.stage(row.line, read.key, JSON.stringify(read.fields));
        else to.reject(row.line, read.reason);
      }
      if (++batch % BATCH === 0) await to.batchDone();
    }
    return;
  }
  const stream = await blobs.open(file.blobHash);
  let read: ReturnType<typeof textRowReader> = () => ({ ok: false, reason: 'the file has no header' });
  try {
    for await (const records of csvRecords(counted(stream, onBytes), (columns) => (read = textRowReader(columns, plan.key, plan.types)))) {
      for (const record of records) {
        if ('error' in record) to.reject(record.line, record.error);
        else {
          const row = read(record.cells);
          if (row.ok) to.stage(record.line, row.key, row.fields);
          else to.reject(record.line, row.reason);
        }
      }
      await to.batchDone();
    }
  } finally {
    stream.destroy();
  }
}

async function* counted(body: AsyncIterable<Buffer>, onBytes: (n: number) => void): AsyncGenerator<Buffer> {
  for await (const chunk of body) {
    onBytes(chunk.length);
    yield chunk;
  }
}
