import { opendir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { BlobTooLargeError, type BlobStore } from '../../adapters/blobs/blob-store.js';
import type { Db } from '../../adapters/db/database.js';
import type { SkippedEntry } from '../../adapters/archives/archive-types.js';
import { SpooledFile, UploadTooLargeError } from '../../adapters/uploads/spooled-file.js';
import { errors } from '../../core/errors.js';
import type { DatasetOperation } from '../../core/lifecycle.js';
import type { FormPart } from '../../http/form-part.js';
import type { Principal } from '../auth/auth.service.js';
import type { DatasetsService } from '../datasets/datasets.service.js';
import type { IngestionRepo, NewUploadFile } from '../ingestion/ingestion.repo.js';
import { type UploadLimits, undecodableImage } from '../ingestion/ingestion.service.js';
import type { DatasetLifecycle } from '../lifecycle/dataset-lifecycle.js';
import { MediaIntake, NotMediaError, UndecodableImageError } from '../ingestion/media-intake.js';
import type { BlobGcRepo } from '../media/blob-gc.repo.js';
import { type AddMediaOptions, parseAddMediaOptions } from './add-media.options.js';
import type { AddMediaRepo } from './add-media.repo.js';
import { ArchiveIntake } from './archive-intake.js';
import type { RemoteMediaProbe } from './remote-media.js';
import { looksLikeMedia } from '../../adapters/sources/s3-location.js';

export type MediaSourceKind = 'files' | 'archive' | 's3' | 'path';

export interface AddMediaSettings {
  enabled: boolean;
  /** Folders the on-premises path source may read (resolved, absolute). */
  localRoots: string[];
  limits: UploadLimits;
}

/** Skipped entries kept on the task: enough to see what went wrong without an unbounded config. */
const SKIPPED_KEPT = 100;
const FILE_ROWS_PER_INSERT = 1000;

interface Batch {
  source: MediaSourceKind;
  files: NewUploadFile[];
  skipped: SkippedEntry[];
  options: AddMediaOptions;
  location?: string;
}

/** Adding media to an indexed dataset (spec 4.7) and reindexing it: checks, intake, and the start of the task. */
export class AddMediaService {
  constructor(
    private readonly db: Db,
    private readonly repo: AddMediaRepo,
    private readonly ingestion: IngestionRepo,
    private readonly datasets: DatasetsService,
    private readonly lifecycle: DatasetLifecycle,
    private readonly blobs: BlobStore,
    private readonly blobGc: BlobGcRepo,
    private readonly remote: RemoteMediaProbe,
    readonly settings: AddMediaSettings,
  ) {}

  /** Reads the form (exactly one source; its shape was checked by the HTTP layer), stores what it carries, and starts a MEDIA_ADDITION task. */
  async start(principal: Principal, datasetId: string, parts: AsyncIterable<FormPart>): Promise<string> {
    await this.preflight(principal, datasetId, 'add_media');
    const fields: Record<string, string> = {};
    const intake = new MediaIntake(this.blobs);
    let files: NewUploadFile[] = [];
    const sources = new Set<MediaSourceKind>();
    const addSource = (kind: MediaSourceKind) => {
      sources.add(kind);
      if (sources.size > 1) throw errors.exactlyOneSource();
    };
    let archive: SpooledFile | null = null;
    const unpacked = new ArchiveIntake(this.blobs, this.blobGc, this.settings.limits.maxFileBytes);
    try {
      for await (const part of parts) {
        if (part.kind === 'field') {
          // Text where a file belongs (a urlencoded form cannot carry files): that source was not given.
          if ((part.name === 'files' || part.name === 'archive') && part.value.trim() !== '') throw errors.exactlyOneSource();
          fields[part.name] = part.value;
          if (part.name === 's3_uri' && part.value.trim() !== '') addSource('s3');
        } else if (part.field === 'files') {
          addSource('files');
          await this.store(intake, part.stream, part.fileName || `file-${intake.hashes.length + 1}`);
        } else {
          addSource('archive');
          archive = await this.spoolArchive(part.stream, part.fileName || 'archive');
        }
      }
      files = await intake.files().catch((err: unknown) => {
        throw err instanceof UndecodableImageError ? undecodableImage(err) : err;
      });
      if (sources.size !== 1) throw errors.exactlyOneSource();
      const options = parseAddMediaOptions(fields);
      const [source] = sources as unknown as [MediaSourceKind];
      let skipped: SkippedEntry[] = [];
      if (archive) ({ files, skipped } = await unpacked.unpack(archive));
      if (source === 's3') {
        const uri = fields.s3_uri!.trim();
        await this.remote.requireMedia(uri, options.assume_role);
        return await this.begin(principal, datasetId, { source, files, skipped, options, location: uri });
      }
      return await this.begin(principal, datasetId, { source, files, skipped, options });
    } catch (err) {
      // Stored bytes that joined nothing: the sweep deletes them unless something else uses them.
      await Promise.all([intake.settled(), unpacked.settled()]);
      await this.blobGc.queue([...new Set([...intake.hashes, ...unpacked.hashes, ...files.map((f) => f.blob_hash)])]);
      throw err;
    } finally {
      await archive?.dispose();
    }
  }

  /** The on-premises source: a folder on this server, only inside LOCAL_MEDIA_ROOTS. */
  async startFromPath(principal: Principal, datasetId: string, folder: string): Promise<string> {
    await this.preflight(principal, datasetId, 'add_media');
    if (!path.isAbsolute(folder)) throw errors.validation('path must be an absolute folder path');
    const resolved = await realpath(folder).catch(() => null);
    const allowed = resolved !== null && this.settings.localRoots.some((root) => resolved === root || resolved.startsWith(root + path.sep));
    if (!allowed) throw errors.pathNotAllowed(folder);
    if (!(await stat(resolved).then((s) => s.isDirectory())) || !(await holdsMedia(resolved))) throw errors.noMediaAt(folder);
    return this.begin(principal, datasetId, { source: 'path', files: [], skipped: [], options: parseAddMediaOptions({}), location: resolved });
  }

  /** Starts a REINDEX task: only from PARTIAL INDEX; the dataset is READ ONLY, then INDEXING, then READY. */
  async reindex(principal: Principal, datasetId: string): Promise<string> {
    await this.datasets.authorize(principal, datasetId, 'write');
    return this.db.transaction().execute(async (trx) => {
      const state = await this.requireState(trx, datasetId, 'reindex', true);
      return (await this.lifecycle.start(trx, { datasetId, operation: 'reindex', state, createdBy: principal.userId })).taskId;
    });
  }

  /** The checks before reading a body: access (404/403), the feature flag (403), an index (400), the status (409). */
  private async preflight(principal: Principal, datasetId: string, operation: DatasetOperation): Promise<void> {
    await this.datasets.authorize(principal, datasetId, 'write');
    if (!this.settings.enabled) throw errors.addMediaDisabled();
    await this.requireState(this.db, datasetId, operation);
  }

  private async requireState(trx: Db, datasetId: string, operation: DatasetOperation, lock = false) {
    const state = await this.lifecycle.state(trx, datasetId, { lock });
    if (operation === 'add_media' && !state.embeddingConfig) throw errors.noEmbeddingConfig(datasetId);
    return this.lifecycle.guard(state, operation);
  }

  /** Checks again under the dataset's row lock and starts the task: two concurrent requests cannot both pass. */
  private async begin(principal: Principal, datasetId: string, batch: Batch): Promise<string> {
    return this.db.transaction().execute(async (trx) => {
      const state = await this.requireState(trx, datasetId, 'add_media', true);
      const transId = await this.repo.openBatch(trx, datasetId, principal.userId);
      // An archive may hold far more media than one statement's 65,535 parameters cover.
      for (let at = 0; at < batch.files.length; at += FILE_ROWS_PER_INSERT) {
        await this.ingestion.addFiles(trx, datasetId, transId, batch.files.slice(at, at + FILE_ROWS_PER_INSERT));
      }
      const started = await this.lifecycle.start(trx, {
        datasetId,
        operation: 'add_media',
        state,
        createdBy: principal.userId,
        statusMessage: `Queued: ${batch.source === 'files' || batch.source === 'archive' ? `${batch.files.length} file(s)` : batch.location} to add`,
        config: {
          trans_id: transId,
          source: batch.source,
          ...(batch.location ? { [batch.source === 's3' ? 's3_uri' : 'path']: batch.location } : {}),
          ...batch.options,
          skipped: batch.skipped.slice(0, SKIPPED_KEPT),
          skipped_count: batch.skipped.length,
        },
      });
      return started.taskId;
    });
  }

  private async store(intake: MediaIntake, stream: Readable, fileName: string): Promise<void> {
    const { maxFileBytes, maxRequestBytes } = this.settings.limits;
    const remaining = maxRequestBytes - intake.bytes;
    try {
      await intake.add(stream, fileName, Math.min(maxFileBytes, remaining));
    } catch (err) {
      stream.resume();
      if (err instanceof UndecodableImageError) throw undecodableImage(err);
      if (err instanceof NotMediaError) throw err.sniffed.kind === 'archive' ? errors.archiveInFiles(fileName) : errors.unsupportedFormat(fileName);
      if (err instanceof BlobTooLargeError) throw remaining < maxFileBytes ? errors.requestTooLarge(maxRequestBytes) : errors.fileTooLarge(fileName, maxFileBytes);
      throw err;
    }
  }

  private async spoolArchive(stream: Readable, name: string): Promise<SpooledFile> {
    const limit = this.settings.limits.maxRequestBytes;
    try {
      return await SpooledFile.spool(stream, name, limit);
    } catch (err) {
      stream.resume();
      throw err instanceof UploadTooLargeError ? errors.fileTooLarge(name, limit) : err;
    }
  }
}

/** Walks a folder until the first file named like media (a huge folder is not read whole in the request). */
async function holdsMedia(folder: string): Promise<boolean> {
  for await (const entry of await opendir(folder, { recursive: true })) if (entry.isFile() && looksLikeMedia(entry.name)) return true;
  return false;
}
