import type { ColumnType, Generated } from 'kysely';
import type { ExportFormat, ExportState } from '../../core/exports.js';

/** Exports, saved views and notifications: the tables of the features built on datasets. */

export interface ExportsTable {
  id: Generated<string>;
  dataset_id: string;
  /** The head when the export started; null only if the sweep reclaimed it after the export ended. */
  version_id: string | null;
  created_by: string;
  file_name: string;
  export_format: ExportFormat;
  include_images: boolean;
  /** The media_selection of a selective export; null for a whole dataset. */
  selection: ColumnType<unknown, string | null, string | null>;
  status: ExportState;
  progress: Generated<number>;
  result_message: string | null;
  item_count: number | null;
  blob_hash: string | null;
  size: number | null;
  created_at: Generated<Date>;
  finished_at: Date | null;
  expires_at: Date | null;
}

/** A stored Explore query on a dataset: `query` holds the Explore parameters it was saved with. */
export interface SavedViewsTable {
  id: Generated<string>;
  dataset_id: string;
  name: string;
  query: ColumnType<Record<string, unknown>, string, string>;
  created_by: string;
  monitoring_enabled: Generated<boolean>;
  alerting_enabled: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** Users a view's owner chose to alert besides themselves. */
export interface SavedViewRecipientsTable {
  view_id: string;
  user_id: string;
}

export interface NotificationsTable {
  id: Generated<string>;
  /** Commit-ordered: the stream's event id. */
  seq: ColumnType<number, never, never>;
  user_id: string;
  dataset_id: string | null;
  entity_type: string;
  entity_id: string;
  batch_id: string | null;
  title: string;
  message: string;
  metadata: ColumnType<Record<string, unknown>, string, string>;
  created_at: Generated<Date>;
  read_at: Date | null;
}
