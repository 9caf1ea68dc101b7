import type { FastifyRequest } from 'fastify';
import type { MediaService, MediaVariant } from './media.service.js';

export type MediaLink = (mediaId: string, variant: MediaVariant) => string;

/** Absolute signed links: PUBLIC_URL when set, else the address the caller used. */
export function mediaLinker(media: MediaService, publicUrl: string | null) {
  return (request: FastifyRequest, datasetId: string): MediaLink => {
    const base = publicUrl ?? `${request.protocol}://${request.host}`;
    return (mediaId, variant) => `${base}${media.signedPath(datasetId, mediaId, variant)}`;
  };
}
