import path from 'node:path';
import type { ExportFormat } from '../../../core/exports.js';
import { METADATA_ENTRY } from '../../../core/exports.js';
import type { ExportItem } from '../export-items.js';
import type { ParquetColumnType } from '../../../adapters/parquet/duckdb-parquet.js';
import { COLUMN_TYPES, type ExportRow } from './columns.js';
import { FileSink } from './file-sink.js';
import { cocoWriter } from './coco-writer.js';
import { jsonMediaItem } from './json-item.js';

/** Builds one format's metadata file from rows as they stream past; finish() returns the local file. */
export interface MetadataWriter {
  entryName: string;
  /** Deflate it in the archive (text), or store it (Parquet is compressed already). */
  compress: boolean;
  write(row: ExportRow, item: ExportItem): Promise<void>;
  finish(): Promise<string>;
  /** Releases what an unfinished writer holds (open files, DuckDB) after a failure. */
  dispose(): void;
}

export interface ExportInfo {
  schema_version: '1.1';
  dataset: string;
  dataset_id: string;
  dataset_creation_time: string;
  export_time: string;
  exported_by: string;
  description: string;
  total_media_items: number;
}

/**
 * `columns`: every column in order (exportColumns: the fixed ones and the version's custom fields). Parquet has
 * no row writer: it is built column-wise (export-columns.ts).
 */
export function metadataWriter(format: Exclude<ExportFormat, 'parquet'>, dir: string, info: ExportInfo, columns: Record<string, ParquetColumnType> = COLUMN_TYPES): MetadataWriter {
  const file = path.join(dir, METADATA_ENTRY[format]);
  switch (format) {
    case 'json':
      return jsonWriter(file, info);
    case 'csv':
      return csvWriter(file, Object.keys(columns));
    case 'coco':
      return cocoWriter(file, info);
  }
}

/** `{info, media_items: [...]}`, one item per line, each in the docs' shape (jsonMediaItem). */
function jsonWriter(file: string, info: ExportInfo): MetadataWriter {
  const sink = new FileSink(file);
  let first = true;
  return {
    entryName: METADATA_ENTRY.json,
    compress: true,
    async write(row, item) {
      await sink.write(`${first ? `{"info":${JSON.stringify(info)},"media_items":[\n` : ',\n'}${JSON.stringify(jsonMediaItem(row, item))}`);
      first = false;
    },
    async finish() {
      await sink.write(first ? `{"info":${JSON.stringify(info)},"media_items":[]}\n` : '\n]}\n');
      await sink.close();
      return file;
    },
    dispose: () => sink.dispose(),
  };
}

/** RFC 4180; lists as JSON arrays in their cell. */
function csvWriter(file: string, COLUMNS: string[]): MetadataWriter {
  const sink = new FileSink(file);
  let header = false;
  const cell = (value: unknown) => {
    if (value === null || value === undefined) return '';
    const text = Array.isArray(value) ? JSON.stringify(value) : String(value);
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  return {
    entryName: METADATA_ENTRY.csv,
    compress: true,
    async write(row) {
      if (!header) await sink.write(`${COLUMNS.join(',')}\r\n`);
      header = true;
      await sink.write(`${COLUMNS.map((c) => cell(row[c])).join(',')}\r\n`);
    },
    async finish() {
      if (!header) await sink.write(`${COLUMNS.join(',')}\r\n`);
      await sink.close();
      return file;
    },
    dispose: () => sink.dispose(),
  };
}
