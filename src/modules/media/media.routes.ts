import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticate, principalOf } from '../../http/authenticate.js';
import { BLOB_HEADERS, type BlobDownloads, contentDisposition, sendBlob } from '../../http/range.js';
import { BytesResponse, DatasetIdParams, Expires, MAX_INT, StringEnum, errorResponses } from '../../http/schemas.js';
import type { AuthService } from '../auth/auth.service.js';
import { mediaLinker } from './media-links.js';
import { presentMedia } from './media.presenter.js';
import { MediaDetail } from './media.schemas.js';
import { MEDIA_VARIANTS, type MediaService, type MediaVariant } from './media.service.js';

const MediaParams = Type.Object({ dataset_id: Type.String({ format: 'uuid' }), media_id: Type.String({ format: 'uuid' }) });
const FileParams = Type.Object({ ...MediaParams.properties, variant: StringEnum(MEDIA_VARIANTS) });
const MediaListQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 500, default: 100 }),
  offset: Type.Integer({ minimum: 0, maximum: MAX_INT, default: 0 }),
  media_type: Type.Optional(StringEnum(['IMAGE', 'VIDEO', 'VIDEO_FRAME'] as const)),
});
/** Originals are any image or video; thumbnails and previews are WebP. */
const MEDIA_BYTES = ['image/*', 'video/*'];
const SignedQuery = Type.Object({ expires: Type.Optional(Expires), signature: Type.Optional(Type.String()) });

export function mediaRoutes(app: FastifyInstance, deps: { media: MediaService; auth: AuthService; downloads: BlobDownloads; publicUrl: string | null }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { media } = deps;
  const linker = mediaLinker(media, deps.publicUrl);

  r.get(
    '/api/v1/dataset/:dataset_id/media',
    {
      schema: {
        tags: ['media'],
        summary: 'The media of the dataset (its current version), oldest first, paged',
        params: DatasetIdParams,
        querystring: MediaListQuery,
        response: { 200: Type.Object({ media: Type.Array(MediaDetail), total: Type.Integer() }), ...errorResponses(401, 404, 422) },
      },
    },
    async (request) => {
      const { dataset_id } = request.params;
      const { limit, offset, media_type } = request.query;
      const { rows, total } = await media.list(principalOf(request), dataset_id, { limit, offset, mediaType: media_type });
      const link = linker(request, dataset_id);
      return { media: rows.map((row) => presentMedia(dataset_id, { media: row, frames: [] }, link)), total };
    },
  );

  r.get(
    '/api/v1/dataset/:dataset_id/media/:media_id',
    {
      schema: {
        tags: ['media'],
        summary: 'A media item of the dataset: its facts and signed links to the original, thumbnail and preview',
        params: MediaParams,
        response: { 200: MediaDetail, ...errorResponses(401, 404, 422) },
      },
    },
    async (request) => {
      const { dataset_id, media_id } = request.params;
      const found = await media.get(principalOf(request), dataset_id, media_id);
      return presentMedia(dataset_id, found, linker(request, dataset_id));
    },
  );

  r.get(
    '/api/v1/dataset/:dataset_id/media/:media_id/:variant',
    {
      // Answers signed links without credentials, so <img> and <video> tags work; otherwise needs a token or the session cookie.
      config: { public: true },
      schema: {
        tags: ['media'],
        summary:
          'The bytes of the original, its WebP thumbnail (256 px) or preview (1024 px); ETag and Range supported. With BLOB_URL (unless BLOB_PROXY) a 302 to a presigned URL of the bucket serving them',
        params: FileParams,
        querystring: SignedQuery,
        response: { 200: BytesResponse('The bytes', MEDIA_BYTES), 206: BytesResponse('The requested range of the bytes', MEDIA_BYTES), 302: Type.Null(), 304: Type.Null(), ...errorResponses(401, 404, 416, 422) },
      },
    },
    async (request, reply) => {
      const { dataset_id, media_id, variant } = request.params;
      const { expires, signature } = request.query;
      const access = signature !== undefined && expires !== undefined ? { expires, signature } : { principal: await authenticate(request, deps.auth) };
      const file = await media.file(access, dataset_id, media_id, variant);

      const etag = `"${file.hash}"`;
      reply.header('etag', etag).header('accept-ranges', 'bytes').header('cache-control', 'private, max-age=3600').headers(BLOB_HEADERS);
      if (request.headers['if-none-match'] === etag) return reply.code(304).send(null);
      return sendBlob(request, reply, deps.downloads, { ...file, disposition: contentDisposition('inline', file.fileName) });
    },
  );
}
