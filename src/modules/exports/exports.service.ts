import type { BlobStore } from '../../adapters/blobs/blob-store.js';
import type { Db } from '../../adapters/db/database.js';
import type { UrlSigner } from '../../adapters/secrets/url-signer.js';
import { errors } from '../../core/errors.js';
import { type ExportFormat, type ExportStatus, archiveFileName, canExport, exportStatus } from '../../core/exports.js';
import type { Principal } from '../auth/auth.service.js';
import type { DatasetsService } from '../datasets/datasets.service.js';
import type { DatasetLifecycle } from '../lifecycle/dataset-lifecycle.js';
import type { MediaSelection } from './export-items.js';
import type { ExportsRepo } from './exports.repo.js';

export interface ExportSettings {
  /** Exports of more media items than this are refused up front as REJECTED. */
  maxItems: number;
  /** How long a download link stays valid. */
  linkSeconds: number;
  /** How long a finished (or rejected) export is kept. */
  ttlSeconds: number;
}

export interface StartExport {
  fileName: string;
  format: ExportFormat;
  includeImages: boolean;
  selection: MediaSelection | null;
}

export interface ExportStatusView {
  status: ExportStatus;
  download_uri: string | null;
  result_message: string | null;
  progress: number;
}

/** Spec 4.3: start a whole or selective export, report its status, and serve the archive through a signed link. */
export class ExportsService {
  constructor(
    private readonly db: Db,
    private readonly repo: ExportsRepo,
    private readonly datasets: DatasetsService,
    private readonly lifecycle: DatasetLifecycle,
    private readonly blobs: BlobStore,
    private readonly signer: UrlSigner,
    private readonly settings: ExportSettings,
  ) {}

  /**
   * Checks and records the export in one transaction under the dataset's row lock: the head of that moment
   * is what the archive holds, whatever changes after. Anyone who can read the dataset may export it.
   */
  async start(principal: Principal, datasetId: string, request: StartExport): Promise<string> {
    await this.datasets.authorize(principal, datasetId, 'read');
    if (request.selection !== null) validateSelection(request.selection);
    return this.db.transaction().execute(async (trx) => {
      const state = await this.lifecycle.state(trx, datasetId);
      if (!canExport(state.status, state.running) || !state.headVersionId) throw errors.exportNotReady(state.status);
      const versionId = state.headVersionId;
      if (request.selection !== null) await this.checkIds(versionId, request.selection);
      const count = await this.repo.countItems(versionId, request.selection);
      const rejected = count > this.settings.maxItems;
      return this.repo.create(trx, {
        datasetId,
        versionId,
        createdBy: principal.userId,
        fileName: archiveFileName(request.fileName),
        format: request.format,
        includeImages: request.includeImages,
        selection: request.selection,
        status: rejected ? 'REJECTED' : 'PENDING',
        resultMessage: rejected ? `Export of ${count} media items exceeds the limit of ${this.settings.maxItems}; export a selection instead` : null,
        itemCount: count,
        expiresAt: rejected ? new Date(Date.now() + this.settings.ttlSeconds * 1000) : null,
      });
    });
  }

  async status(principal: Principal, datasetId: string, exportId: string, baseUrl: string): Promise<ExportStatusView> {
    await this.datasets.authorize(principal, datasetId, 'read');
    const row = await this.repo.find(datasetId, exportId);
    if (!row) throw errors.exportNotFound();
    const status = exportStatus(row.status);
    const expires = Math.floor(Date.now() / 1000) + this.settings.linkSeconds;
    return {
      status,
      download_uri: status === 'COMPLETED' ? `${baseUrl}/api/v1/exports/${row.id}/download?expires=${expires}&signature=${this.signer.sign(resource(row.id), expires)}` : null,
      result_message: row.result_message,
      progress: row.progress,
    };
  }

  /** The archive behind a signed link (no header needed), or for a caller who can read the dataset. */
  async archive(exportId: string, access: { expires: number; signature: string } | { principal: Principal }) {
    const row = await this.repo.findById(exportId);
    if ('signature' in access) {
      if (!this.signer.verify(resource(exportId), access.expires, access.signature)) throw errors.downloadLinkInvalid();
      if (!row) throw errors.exportGone();
    } else {
      if (!row) throw errors.exportNotFound();
      await this.datasets.authorize(access.principal, row.dataset_id, 'read');
    }
    if (row.status !== 'COMPLETED' || !row.blob_hash) throw errors.exportNotFound();
    return { hash: row.blob_hash, size: Number(row.size), fileName: row.file_name };
  }

  private async checkIds(versionId: string, selection: MediaSelection): Promise<void> {
    const mediaIds = selection.flatMap((s) => (s.type === 'media' ? s.payload.media_ids : (s.payload.exclude_media_ids ?? [])));
    const unknownMedia = await this.repo.unknownMedia(versionId, mediaIds);
    if (unknownMedia.length > 0) throw errors.unknownMediaIds(unknownMedia);
    const unknownClusters = await this.repo.unknownClusters(versionId, selection.flatMap((s) => (s.type === 'cluster' ? [s.payload.cluster_id] : [])));
    if (unknownClusters.length > 0) throw errors.unknownClusterIds(unknownClusters);
  }
}

const resource = (exportId: string) => `export:${exportId}`;

function validateSelection(selection: MediaSelection): void {
  const named = selection.some((s) => (s.type === 'media' ? s.payload.media_ids.length > 0 : true));
  if (!named) throw errors.emptySelection();
  for (const s of selection) {
    const entityType = s.type === 'cluster' ? s.payload.cluster_filters?.entity_type : undefined;
    if (entityType !== undefined && entityType !== 'IMAGES') {
      throw errors.validation(`cluster_filters.entity_type must be IMAGES (objects exist only after enrichment); got ${entityType}`);
    }
  }
}
