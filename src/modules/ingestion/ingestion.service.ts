import type { Db } from '../../adapters/db/database.js';
import { BlobTooLargeError, type BlobStore } from '../../adapters/blobs/blob-store.js';
import { errors } from '../../core/errors.js';
import type { FormPart } from '../../http/form-part.js';
import type { Principal } from '../auth/auth.service.js';
import type { DatasetsService } from '../datasets/datasets.service.js';
import type { DatasetLifecycle } from '../lifecycle/dataset-lifecycle.js';
import type { BlobGcRepo } from '../media/blob-gc.repo.js';
import type { IngestionRepo, NewUploadFile } from './ingestion.repo.js';
import { MediaIntake, NotMediaError, UndecodableImageError } from './media-intake.js';

export interface UploadLimits {
  maxFileBytes: number;
  maxRequestBytes: number;
  maxFilesPerRequest: number;
}

export class IngestionService {
  constructor(
    private readonly db: Db,
    private readonly repo: IngestionRepo,
    private readonly datasets: DatasetsService,
    private readonly lifecycle: DatasetLifecycle,
    private readonly blobs: BlobStore,
    private readonly blobGc: BlobGcRepo,
    readonly limits: UploadLimits,
  ) {}

  /** Creation from local files happens before the dataset's first version; afterwards media is added with add_media. */
  private async datasetBeingCreated(principal: Principal, datasetId: string) {
    const dataset = await this.datasets.authorize(principal, datasetId, 'write');
    if (dataset.head_version_id !== null) throw errors.datasetAlreadyCreated();
    return dataset;
  }

  async openTransaction(principal: Principal, datasetId: string): Promise<number> {
    await this.datasetBeingCreated(principal, datasetId);
    return this.repo.openTransaction(datasetId, principal.userId);
  }

  /**
   * Streams each file into the blob store, deciding its type from its first bytes. The request is
   * all or nothing: its files join the transaction only when every one of them was accepted.
   */
  async upload(principal: Principal, datasetId: string, transId: number, parts: AsyncIterable<FormPart>) {
    await this.datasetBeingCreated(principal, datasetId);
    await this.requireOpen(this.db, datasetId, transId);

    const intake = new MediaIntake(this.blobs);
    let accepted: NewUploadFile[];
    try {
      await this.receive(parts, intake);
      accepted = await intake.files().catch((err: unknown) => {
        throw err instanceof UndecodableImageError ? undecodableImage(err) : err;
      });
      if (accepted.length === 0) throw errors.noFilesInRequest();
      await this.db.transaction().execute(async (trx) => {
        await this.requireOpen(trx, datasetId, transId, true);
        await this.repo.addFiles(trx, datasetId, transId, accepted);
      });
    } catch (err) {
      // The files stored before the failure belong to nothing: the sweep deletes them unless something else uses the bytes.
      await intake.settled();
      await this.blobGc.queue(intake.hashes);
      throw err;
    }
    return { trans_id: transId, files: accepted.map((f) => ({ file_name: f.file_name, media_kind: f.kind, format: f.format, size: f.size })) };
  }

  private async receive(parts: AsyncIterable<FormPart>, intake: MediaIntake): Promise<void> {
    for await (const part of parts) {
      if (part.kind !== 'file') continue;
      const fileName = part.fileName || `file-${intake.hashes.length + 1}`;
      const remaining = this.limits.maxRequestBytes - intake.bytes;
      try {
        await intake.add(part.stream, fileName, Math.min(this.limits.maxFileBytes, remaining));
      } catch (err) {
        part.stream.resume();
        throw uploadError(err, fileName, remaining, this.limits);
      }
    }
  }

  /** Hands the transaction to a DATASET_CREATION task; the dataset is INDEXING from here. */
  async process(principal: Principal, datasetId: string, transId: number): Promise<string> {
    await this.datasetBeingCreated(principal, datasetId);
    return this.db.transaction().execute(async (trx) => {
      await this.requireOpen(trx, datasetId, transId, true);
      if ((await this.repo.countFiles(trx, datasetId, transId)) === 0) throw errors.emptyTransaction(transId);
      const started = await this.lifecycle.start(trx, { datasetId, operation: 'process_files', createdBy: principal.userId, config: { trans_id: transId } });
      await this.repo.setTransactionStatus(trx, datasetId, transId, 'PROCESSING');
      return started.taskId;
    });
  }

  private async requireOpen(trx: Db, datasetId: string, transId: number, lock = false): Promise<void> {
    const transaction = await this.repo.findTransaction(trx, datasetId, transId, lock);
    if (!transaction) throw errors.transactionNotFound(transId);
    if (transaction.status !== 'OPEN') throw errors.transactionClosed(transId);
  }
}

/** The HTTP error for a file that could not be stored: wrong kind of file, over a size limit, or an image that can never decode. */
export function uploadError(err: unknown, fileName: string, remaining: number, limits: UploadLimits): unknown {
  if (err instanceof UndecodableImageError) return undecodableImage(err);
  if (err instanceof NotMediaError) return err.sniffed.kind === 'archive' ? errors.archiveNotSupported(fileName) : errors.unsupportedFormat(fileName);
  if (err instanceof BlobTooLargeError) return remaining < limits.maxFileBytes ? errors.requestTooLarge(limits.maxRequestBytes) : errors.fileTooLarge(fileName, limits.maxFileBytes);
  return err;
}

export function undecodableImage({ fileName, verdict }: UndecodableImageError) {
  if (verdict.problem === 'too_large') return errors.imageTooLarge(fileName, verdict.width, verdict.height, verdict.limit);
  return errors.imageWithoutData(fileName);
}
