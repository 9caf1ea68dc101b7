import type { BlobStore } from '../../adapters/blobs/blob-store.js';
import type { MediaRow } from '../../adapters/db/schema.js';
import type { UrlSigner } from '../../adapters/secrets/url-signer.js';
import { errors } from '../../core/errors.js';
import type { Principal } from '../auth/auth.service.js';
import type { DatasetsService } from '../datasets/datasets.service.js';
import type { MediaRepo } from './media.repo.js';

export const MEDIA_VARIANTS = ['original', 'thumbnail', 'preview'] as const;
export type MediaVariant = (typeof MEDIA_VARIANTS)[number];

/** Links stay valid this long: long enough for a page of thumbnails, short enough to expire with a session. */
const URL_LIFETIME_SECONDS = 3600;

export interface MediaFile {
  hash: string;
  size: number;
  contentType: string;
  /** What a download names the file. */
  fileName: string;
}

export class MediaService {
  constructor(
    private readonly repo: MediaRepo,
    private readonly datasets: DatasetsService,
    private readonly blobs: BlobStore,
    private readonly signer: UrlSigner,
  ) {}

  async get(principal: Principal, datasetId: string, mediaId: string) {
    await this.datasets.authorize(principal, datasetId, 'read');
    const media = await this.repo.findInHead(datasetId, mediaId);
    if (!media) throw errors.mediaNotFound();
    const frames = media.media_type === 'VIDEO' ? await this.repo.frames(media.id) : [];
    return { media, frames };
  }

  async list(principal: Principal, datasetId: string, page: Parameters<MediaRepo['listInHead']>[1]) {
    const dataset = await this.datasets.authorize(principal, datasetId, 'read');
    return this.repo.listInHead(dataset.head_version_id, page);
  }

  /** A path (relative to the API root) that serves the variant without other credentials until it expires. */
  signedPath(datasetId: string, mediaId: string, variant: MediaVariant): string {
    const expires = Math.floor(Date.now() / 1000) + URL_LIFETIME_SECONDS;
    const resource = resourceOf(datasetId, mediaId, variant);
    return `/api/v1/dataset/${resource}?expires=${expires}&signature=${this.signer.sign(resource, expires)}`;
  }

  /** The bytes behind a variant, for a signed link or a caller with read access. */
  async file(
    access: { principal: Principal } | { expires: number; signature: string },
    datasetId: string,
    mediaId: string,
    variant: MediaVariant,
  ): Promise<MediaFile> {
    if ('principal' in access) await this.datasets.authorize(access.principal, datasetId, 'read');
    else if (!this.signer.verify(resourceOf(datasetId, mediaId, variant), access.expires, access.signature)) {
      throw errors.invalidToken('the media link has expired or its signature is wrong');
    }
    const media = await this.repo.findInHead(datasetId, mediaId);
    if (!media) throw errors.mediaNotFound();
    const hash = pick(media, variant);
    if (!hash) throw errors.mediaNotFound();
    const stat = await this.blobs.stat(hash);
    if (!stat) throw errors.mediaNotFound();
    return { hash, size: stat.size, contentType: VARIANT_TYPES[variant] ?? media.mime, fileName: variantName(media.file_name, variant) };
  }
}

const VARIANT_TYPES: Partial<Record<MediaVariant, string>> = { thumbnail: 'image/webp', preview: 'image/jpeg' };

/** The name a download of the variant carries: the original's own, or its stem with the variant and its type. */
function variantName(fileName: string, variant: MediaVariant): string {
  if (variant === 'original') return fileName;
  const stem = fileName.replace(/\.[^.]*$/, '');
  return variant === 'thumbnail' ? `${stem}.thumbnail.webp` : `${stem}.preview.jpg`;
}

function resourceOf(datasetId: string, mediaId: string, variant: MediaVariant): string {
  return `${datasetId}/media/${mediaId}/${variant}`;
}

function pick(media: MediaRow, variant: MediaVariant): string | null {
  if (variant === 'original') return media.blob_hash;
  return variant === 'thumbnail' ? media.thumb_hash : media.preview_hash;
}
