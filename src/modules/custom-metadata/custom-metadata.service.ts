import type { Readable } from 'node:stream';
import { BlobTooLargeError, type BlobStore } from '../../adapters/blobs/blob-store.js';
import type { Db } from '../../adapters/db/database.js';
import { tableFormatOf } from '../../adapters/tables/table-rows.js';
import type { FieldType } from '../../core/custom-fields.js';
import { errors } from '../../core/errors.js';
import type { Principal } from '../auth/auth.service.js';
import type { DatasetsService } from '../datasets/datasets.service.js';
import type { DatasetLifecycle } from '../lifecycle/dataset-lifecycle.js';
import type { BlobGcRepo } from '../media/blob-gc.repo.js';
import type { VersionsRepo } from '../versions/versions.repo.js';
import type { CustomMetadataRepo } from './custom-metadata.repo.js';
import { type MetadataFile, planFile } from './metadata-file.js';

export interface ImportReportBody {
  rows: number;
  matched: number;
  unmatched: number;
  rejected: number;
  rejections: Array<{ line: number; reason: string }>;
  unmatched_keys: string[];
}

export type IncomingFile = { fileName: string; stream: Readable } | undefined;

/**
 * Custom metadata import: the file is stored and its header and first rows checked in the request (400 and
 * nothing changed for an unknown key column, a type conflict or an oversized file); a CUSTOM_METADATA task
 * then reads it whole into staging, rejecting bad rows, and applies it in its commit.
 */
export class CustomMetadataService {
  constructor(
    private readonly db: Db,
    private readonly repo: CustomMetadataRepo,
    private readonly datasets: DatasetsService,
    private readonly lifecycle: DatasetLifecycle,
    private readonly versions: VersionsRepo,
    private readonly blobs: BlobStore,
    private readonly blobGc: BlobGcRepo,
    readonly maxFileBytes: number,
  ) {}

  /** Access and the guard first, then the body: a refused request reads no file. */
  async start(principal: Principal, datasetId: string, readFile: () => Promise<IncomingFile>): Promise<string> {
    await this.datasets.authorize(principal, datasetId, 'write');
    const { headVersionId } = await this.guard(this.db, datasetId, false);
    const incoming = await readFile();
    if (!incoming) throw errors.metadataFileRequired();
    const file = await this.store(incoming);
    try {
      const existing = await this.versions.fieldTypes(this.db, headVersionId);
      const plan = await planFile(this.blobs, file, existing);
      if (!plan.ok) throw errors.badMetadataFile(plan.problem);
      return await this.db.transaction().execute(async (trx) => {
        const state = await this.guard(trx, datasetId, true);
        const started = await this.lifecycle.start(trx, {
          datasetId,
          operation: 'import_custom_metadata',
          state,
          createdBy: principal.userId,
          statusMessage: `Queued: import of ${incoming.fileName} (${Object.keys(plan.types).length} field(s), key ${plan.key})`,
          config: { blob_hash: file.blobHash, format: file.format, size: file.size, file_name: incoming.fileName, key: plan.key, types: plan.types },
        });
        return started.taskId;
      });
    } catch (err) {
      await this.blobGc.queue([file.blobHash]);
      throw err;
    }
  }

  async schema(principal: Principal, datasetId: string) {
    const dataset = await this.datasets.authorize(principal, datasetId, 'read');
    const types = dataset.head_version_id ? await this.versions.fieldTypes(this.db, dataset.head_version_id) : {};
    return { fields: Object.entries(types).map(([name, type]) => ({ name, type })).sort((a, b) => a.name.localeCompare(b.name)) };
  }

  async report(principal: Principal, datasetId: string, taskId: string) {
    await this.datasets.authorize(principal, datasetId, 'read');
    const task = await this.repo.findTask(datasetId, taskId);
    if (!task) throw errors.importNotFound();
    const config = task.config as Record<string, unknown>;
    return {
      task_id: task.id,
      status: task.status,
      status_message: task.status_message,
      error_message: task.error_message,
      progress_percentage: task.progress_percentage,
      file_name: String(config.file_name ?? ''),
      key: String(config.key ?? ''),
      fields: Object.entries((config.types ?? {}) as Record<string, FieldType>)
        .map(([name, type]) => ({ name, type }))
        .sort((a, b) => a.name.localeCompare(b.name)),
      report: (config.report ?? null) as ImportReportBody | null,
    };
  }

  private async guard(trx: Db, datasetId: string, lock: boolean) {
    const state = await this.lifecycle.check(trx, datasetId, 'import_custom_metadata', { lock });
    if (!state.headVersionId) throw errors.notIndexed(datasetId);
    return { ...state, headVersionId: state.headVersionId };
  }

  private async store(incoming: NonNullable<IncomingFile>): Promise<MetadataFile> {
    let head = Buffer.alloc(0);
    try {
      const stored = await this.blobs.put(incoming.stream, { maxBytes: this.maxFileBytes, inspect: (bytes) => (head = Buffer.from(bytes)) });
      if (stored.size === 0) throw errors.badMetadataFile('the file is empty');
      return { blobHash: stored.hash, size: stored.size, format: tableFormatOf(incoming.fileName, head) };
    } catch (err) {
      incoming.stream.resume();
      if (err instanceof BlobTooLargeError) throw errors.metadataFileTooLarge(this.maxFileBytes);
      throw err;
    }
  }
}
