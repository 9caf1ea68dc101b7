import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { authenticate, principalOf } from '../../http/authenticate.js';
import { type BlobDownloads, contentDisposition, sendBlob } from '../../http/range.js';
import { BytesResponse, DatasetIdParams, errorResponses } from '../../http/schemas.js';
import type { AuthService } from '../auth/auth.service.js';
import type { MediaSelection } from './export-items.js';
import {
  DownloadParams,
  DownloadQuery,
  ExportCreated,
  ExportStatusBody,
  ExportStatusQuery,
  FullExportQuery,
  SelectiveExportBody,
  SelectiveExportQuery,
} from './exports.schemas.js';
import type { ExportsService } from './exports.service.js';

/** Spec 4.3. Exports are asynchronous: start, poll export_status, download the signed link. */
export function exportsRoutes(app: FastifyInstance, deps: { exports: ExportsService; auth: AuthService; downloads: BlobDownloads; publicUrl: string | null }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { exports } = deps;

  r.get(
    '/api/v1/dataset/:dataset_id/export_context_async',
    {
      schema: {
        tags: ['export'],
        summary: 'Start exporting the whole dataset as a ZIP (metadata, optionally the media files); needs READY',
        params: DatasetIdParams,
        querystring: FullExportQuery,
        response: { 200: ExportCreated, ...errorResponses(401, 404, 409, 422) },
      },
    },
    async (request) => {
      const { file_name, export_format, include_images } = request.query;
      const id = await exports.start(principalOf(request), request.params.dataset_id, { fileName: file_name, format: export_format, includeImages: include_images, selection: null });
      return { id };
    },
  );

  r.post(
    '/api/v1/dataset/:dataset_id/export_entities_async',
    {
      schema: {
        tags: ['export'],
        summary: 'Start exporting a selection (media ids and/or clusters, their union) as a ZIP; unknown ids are a 422',
        params: DatasetIdParams,
        querystring: SelectiveExportQuery,
        body: SelectiveExportBody,
        response: { 200: ExportCreated, ...errorResponses(401, 404, 409, 422) },
      },
    },
    async (request) => {
      const { export_format, include_images, file_name } = request.query;
      const id = await exports.start(principalOf(request), request.params.dataset_id, {
        fileName: file_name ?? 'export',
        format: export_format,
        includeImages: include_images,
        selection: request.body.media_selection as MediaSelection,
      });
      return { id };
    },
  );

  r.get(
    '/api/v1/dataset/:dataset_id/export_status',
    {
      schema: {
        tags: ['export'],
        summary: 'An export: PENDING (also while running), COMPLETED with download_uri, FAILED or REJECTED with result_message',
        params: DatasetIdParams,
        querystring: ExportStatusQuery,
        response: { 200: ExportStatusBody, ...errorResponses(401, 404, 422) },
      },
    },
    async (request) => {
      const base = deps.publicUrl ?? `${request.protocol}://${request.host}`;
      return exports.status(principalOf(request), request.params.dataset_id, request.query.export_task_id, base);
    },
  );

  r.get(
    '/api/v1/exports/:export_id/download',
    {
      // The link carries its own signature, so a plain download (curl -L, a browser) needs no header.
      config: { public: true },
      schema: {
        tags: ['export'],
        summary:
          'The ZIP of a completed export: a signed link from export_status, or a token; Range supported. With BLOB_URL (unless BLOB_PROXY) a 302 to a presigned URL of the bucket serving it',
        params: DownloadParams,
        querystring: DownloadQuery,
        response: { 200: BytesResponse('The ZIP archive', ['application/zip']), 206: BytesResponse('The requested range of the archive', ['application/zip']), 302: Type.Null(), ...errorResponses(401, 404, 410, 416, 422) },
      },
    },
    async (request, reply) => {
      const { expires, signature } = request.query;
      const access = signature !== undefined && expires !== undefined ? { expires, signature } : { principal: await authenticate(request, deps.auth) };
      const file = await exports.archive(request.params.export_id, access);
      reply.header('accept-ranges', 'bytes').header('etag', `"${file.hash}"`);
      return sendBlob(request, reply, deps.downloads, { ...file, contentType: 'application/zip', disposition: contentDisposition('attachment', file.fileName) });
    },
  );
}
