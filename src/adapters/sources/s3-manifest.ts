import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import { parse } from 'csv-parse';
import { parquetMetadataAsync, parquetReadObjects, parquetSchema, type AsyncBuffer, type Compressors } from 'hyparquet';
import { textLines } from '../tables/text-lines.js';
import { looksLikeMedia, looksLikeS3Uri, S3SourceError } from './s3-location.js';

/** Column names that hold the media URI, in order of preference, matched case-insensitively. */
export const URI_COLUMNS = ['uri', 'url', 's3_uri', 'path', 'media_uri', 'file', 'filename', 'key'];

/** Rows looked at to find the URI column (and, for CSV, whether the first row is a header). */
const SAMPLE_ROWS = 20;

/** `.txt`: one entry a line; blank lines and lines starting with '#' are skipped. */
export async function* readTextManifest(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  for await (const line of textLines(body)) {
    const entry = textEntry(line);
    if (entry) yield entry;
  }
}

const textEntry = (line: string): string | null => {
  const entry = line.trim();
  return entry === '' || entry.startsWith('#') ? null : entry;
};

/** `.csv`, with or without a header row: the values of the URI column, streamed. */
export async function* readCsvManifest(body: Readable, name: string): AsyncGenerator<string> {
  const parser = parse({ bom: true, trim: true, skip_empty_lines: true, relax_column_count: true });
  pipeline(body, parser, () => {}); // a failing body destroys the parser, which rejects the loop below
  const sample: string[][] = [];
  let column: { index: number; header: boolean } | null = null;
  for await (const record of parser as AsyncIterable<string[]>) {
    if (!column) {
      sample.push(record);
      if (sample.length < SAMPLE_ROWS) continue;
      column = csvColumn(sample, name);
      yield* valuesOf(column.header ? sample.slice(1) : sample, column.index);
      continue;
    }
    const value = record[column.index];
    if (value) yield value;
  }
  if (!column && sample.length > 0) {
    column = csvColumn(sample, name);
    yield* valuesOf(column.header ? sample.slice(1) : sample, column.index);
  }
}

function csvColumn(sample: string[][], name: string): { index: number; header: boolean } {
  const first = sample[0] ?? [];
  const names = first.map((cell) => cell.toLowerCase());
  for (const wanted of URI_COLUMNS) {
    const index = names.indexOf(wanted);
    if (index >= 0) return { index, header: true };
  }
  // Values that are all URIs (or media paths) from the first row on: no header; from the second row on: a header.
  for (const [rows, header] of [[sample, false], [sample.slice(1), true]] as const) {
    for (const test of [looksLikeS3Uri, looksLikeEntry]) {
      const index = columnWhere(rows, test);
      if (index >= 0) return { index, header };
    }
  }
  if (sample.every((row) => row.length <= 1)) return { index: 0, header: false };
  throw noUriColumn(name);
}

/** Reads one row group at a time, so a large manifest is never held whole. */
export async function* readParquetManifest(file: AsyncBuffer, name: string): AsyncGenerator<string> {
  const metadata = await parquetMetadataAsync(file);
  const columns = parquetSchema(metadata)
    .children.filter((child) => child.children.length === 0 && child.element.type === 'BYTE_ARRAY')
    .map((child) => child.element.name);
  const column = await parquetColumn(file, metadata, columns, name);
  let rowStart = 0;
  for (const group of metadata.row_groups) {
    const rowEnd = rowStart + Number(group.num_rows);
    const rows = await parquetReadObjects({ file, metadata, columns: [column], rowStart, rowEnd, compressors });
    yield* valuesOf(
      rows.map((row) => [cellText(row[column])]),
      0,
    );
    rowStart = rowEnd;
  }
}

type ParquetMetadata = Awaited<ReturnType<typeof parquetMetadataAsync>>;

async function parquetColumn(file: AsyncBuffer, metadata: ParquetMetadata, columns: string[], name: string) {
  for (const wanted of URI_COLUMNS) {
    const column = columns.find((candidate) => candidate.toLowerCase() === wanted);
    if (column) return column;
  }
  const rowEnd = Math.min(SAMPLE_ROWS, Number(metadata.num_rows));
  if (columns.length > 0 && rowEnd > 0) {
    const rows = await parquetReadObjects({ file, metadata, columns, rowStart: 0, rowEnd, compressors });
    const sample = rows.map((row) => columns.map((column) => cellText(row[column])));
    for (const test of [looksLikeS3Uri, looksLikeEntry]) {
      const index = columnWhere(sample, test);
      if (index >= 0) return columns[index] as string;
    }
  }
  if (columns.length === 1) return columns[0] as string;
  throw noUriColumn(name);
}

/** Codecs beyond hyparquet's built-in snappy that Node can decode; ZSTD only where Node has it (22.15+). */
const zstd = (zlib as unknown as { zstdDecompressSync?: (input: Uint8Array) => Uint8Array }).zstdDecompressSync;
const compressors: Compressors = {
  GZIP: (input) => zlib.gunzipSync(input),
  BROTLI: (input) => zlib.brotliDecompressSync(input),
  ...(zstd ? { ZSTD: (input: Uint8Array) => zstd(input) } : {}),
};

/** An s3:// URI or a key with a media extension (relative keys carry no scheme to recognise them by). */
const looksLikeEntry = (value: string): boolean => looksLikeS3Uri(value) || looksLikeMedia(value);

const cellText = (value: unknown): string =>
  typeof value === 'string' ? value.trim() : value instanceof Uint8Array ? Buffer.from(value).toString('utf8').trim() : '';

/** The first column with at least one non-empty value where every non-empty value passes the test. */
function columnWhere(rows: string[][], test: (value: string) => boolean): number {
  const width = Math.max(0, ...rows.map((row) => row.length));
  for (let index = 0; index < width; index++) {
    const values = rows.map((row) => row[index] ?? '').filter((value) => value !== '');
    if (values.length > 0 && values.every(test)) return index;
  }
  return -1;
}

function* valuesOf(rows: string[][], index: number): Generator<string> {
  for (const row of rows) {
    const value = row[index];
    if (value) yield value;
  }
}

const noUriColumn = (name: string) =>
  new S3SourceError(`manifest ${name} has no column of media URIs (name it one of ${URI_COLUMNS.join(', ')})`);
