import { open } from 'node:fs/promises';
import zlib from 'node:zlib';
import { csvRecords } from './csv-records.js';
import { textLines } from './text-lines.js';
import { type AsyncBuffer, type Compressors, parquetMetadataAsync, parquetReadObjects, parquetSchema } from 'hyparquet';

/** Files of rows: CSV with a header, JSON lines (one object a line), Parquet. */
export type TableFormat = 'csv' | 'jsonl' | 'parquet';
export const TABLE_FORMATS: readonly TableFormat[] = ['csv', 'jsonl', 'parquet'];

/** A row read, or why it could not be (a bad line rejects that row only). `line` counts from 1 as an editor shows it (Parquet: the row). */
export type TableRow = { line: number; values: Record<string, unknown> } | { line: number; error: string };

/** The format from the first bytes (Parquet's magic), else the name, else the first character ('{' → JSON lines). */
export function tableFormatOf(fileName: string, head: Buffer): TableFormat {
  if (head.subarray(0, 4).toString('latin1') === 'PAR1') return 'parquet';
  const name = fileName.toLowerCase();
  if (/\.(jsonl|ndjson|json)$/.test(name)) return 'jsonl';
  if (name.endsWith('.csv')) return 'csv';
  return head.toString('utf8').replace(/^\uFEFF/, '').trimStart().startsWith('{') ? 'jsonl' : 'csv';
}

/**
 * CSV rows as objects keyed by the header (trimmed); `onHeader` gets the header before the first row. A row
 * with the wrong number of cells is an error row, the rest goes on. Streams: one chunk's rows in memory at a time.
 */
export async function* readCsvRows(body: AsyncIterable<Uint8Array>, onHeader: (columns: string[]) => void): AsyncGenerator<TableRow> {
  let columns: string[] = [];
  for await (const records of csvRecords(body, (c) => onHeader((columns = c)))) {
    for (const record of records) {
      if ('error' in record) yield record;
      else yield { line: record.line, values: Object.fromEntries(columns.map((c, i) => [c, record.cells[i]])) };
    }
  }
}

/** JSON lines: each non-blank line one object. */
export async function* readJsonLines(body: AsyncIterable<Uint8Array>): AsyncGenerator<TableRow> {
  let line = 0;
  const row = (text: string): TableRow | null => {
    line += 1;
    if (text.trim() === '') return null;
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) return { line, values: value as Record<string, unknown> };
      return { line, error: 'the line is not a JSON object' };
    } catch {
      return { line, error: 'the line is not valid JSON' };
    }
  };
  for await (const text of textLines(body)) {
    const r = row(text);
    if (r) yield r;
  }
}

/** The top-level column names of a Parquet file (its schema), without reading rows. */
export async function parquetColumns(file: AsyncBuffer): Promise<string[]> {
  return parquetSchema(await parquetMetadataAsync(file)).children.map((c) => c.element.name);
}

/** Parquet rows one row group at a time, so a large file is never held whole. */
export async function* readParquetRows(file: AsyncBuffer): AsyncGenerator<TableRow> {
  const metadata = await parquetMetadataAsync(file);
  let rowStart = 0;
  for (const group of metadata.row_groups) {
    const rowEnd = rowStart + Number(group.num_rows);
    const rows = await parquetReadObjects({ file, metadata, rowStart, rowEnd, compressors });
    for (let i = 0; i < rows.length; i++) yield { line: rowStart + i + 1, values: rows[i] as Record<string, unknown> };
    rowStart = rowEnd;
  }
}

/** A local file as hyparquet's AsyncBuffer: ranged reads, nothing held. close() when done. */
export async function fileAsyncBuffer(path: string): Promise<AsyncBuffer & { close(): Promise<void> }> {
  const handle = await open(path, 'r');
  const { size } = await handle.stat();
  return {
    byteLength: size,
    async slice(start: number, end = size) {
      const buffer = Buffer.alloc(end - start);
      await handle.read(buffer, 0, end - start, start);
      return buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength) as ArrayBuffer;
    },
    close: () => handle.close(),
  };
}

const zstd = (zlib as unknown as { zstdDecompressSync?: (input: Uint8Array) => Uint8Array }).zstdDecompressSync;
const compressors: Compressors = {
  GZIP: (input) => zlib.gunzipSync(input),
  BROTLI: (input) => zlib.brotliDecompressSync(input),
  ...(zstd ? { ZSTD: (input: Uint8Array) => zstd(input) } : {}),
};
