/**
 * Every column that names a blob: the blob sweep keeps a blob any of them references, and a backup copies every blob
 * they reference. A new column holding a blob hash goes here, or the sweep deletes what it names.
 * `activeOnly` narrows a reference to the rows that still need the blob (an import task's file once it has ended does not).
 */
export const BLOB_REFERENCES: ReadonlyArray<{ table: string; column: string; activeOnly?: string }> = [
  { table: 'media', column: 'blob_hash' },
  { table: 'media', column: 'thumb_hash' },
  { table: 'media', column: 'preview_hash' },
  { table: 'upload_files', column: 'blob_hash' },
  { table: 'version_indexes', column: 'ann_blob_hash' },
  { table: 'version_indexes', column: 'graph_blob_hash' },
  { table: 'object_graphs', column: 'graph_blob_hash' },
  { table: 'exports', column: 'blob_hash' },
  { table: 'tasks', column: "config ->> 'blob_hash'", activeOnly: "status in ('INITIALIZING', 'RUNNING')" },
];
