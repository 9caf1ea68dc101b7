import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { CropBox } from '../../adapters/media/image.js';
import { errors } from '../../core/errors.js';
import { principalOf } from '../../http/authenticate.js';
import { DatasetIdParams, errorResponses } from '../../http/schemas.js';
import { mediaLinker } from '../media/media-links.js';
import type { MediaService } from '../media/media.service.js';
import { presentClusters } from './explore.presenter.js';
import { CLUSTERS_PER_PAGE } from './explore.repo.js';
import { DuplicatesResponse, ExploreParams, ExploreQuerySchema, ExploreResponse, SimilarityAnchor } from './explore.schemas.js';
import type { ExploreService } from './explore.service.js';
import type { ViewsService } from '../views/views.service.js';

export function exploreRoutes(
  app: FastifyInstance,
  deps: { explore: ExploreService; views: Pick<ViewsService, 'selection'>; media: MediaService; publicUrl: string | null; maxFileBytes: number },
): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { explore } = deps;
  const linker = mediaLinker(deps.media, deps.publicUrl);

  r.get(
    '/api/v1/explore/:dataset_id',
    {
      schema: {
        tags: ['explore'],
        summary: 'Clusters of the dataset at a granularity level, filtered, or ranked by similarity to an anchor; 100 clusters a page',
        params: ExploreParams,
        querystring: ExploreQuerySchema,
        response: { 200: ExploreResponse, ...errorResponses(401, 404, 409, 422) },
      },
    },
    async (request) => {
      const { dataset_id } = request.params;
      const { view_id, page_number, previews_limit } = request.query;
      const query = view_id ? { ...(await deps.views.selection(principalOf(request), dataset_id, view_id)), page_number, previews_limit } : request.query;
      const result = await explore.explore(principalOf(request), dataset_id, query);
      return {
        clusters: presentClusters(result.rows, query.entity_type, result.relevanceType, linker(request, dataset_id)),
        page_number: query.page_number,
        threshold: query.threshold,
        entity_type: query.entity_type,
        total_clusters: result.totalClusters,
        clusters_per_page: CLUSTERS_PER_PAGE,
      };
    },
  );

  r.post(
    '/api/v1/dataset/:dataset_id/search-image-similarity',
    {
      schema: {
        tags: ['explore'],
        summary: "Upload an image (multipart field 'file', optional 'bounding_box' as x,y,width,height in its pixels) to use as an Explore anchor",
        consumes: ['multipart/form-data'],
        params: DatasetIdParams,
        response: { 200: SimilarityAnchor, ...errorResponses(400, 401, 404, 409, 413, 422) },
      },
    },
    async (request) => {
      if (!request.isMultipart()) throw errors.imageRequired();
      const dir = await mkdtemp(path.join(os.tmpdir(), 'loupe-anchor-'));
      try {
        let file: { path: string; fileName: string } | undefined;
        let box: string | undefined;
        for await (const part of request.parts({ limits: { fileSize: deps.maxFileBytes, files: 1 } })) {
          if (part.type === 'file') {
            if (part.fieldname !== 'file' || file) {
              part.file.resume();
              continue;
            }
            file = { path: path.join(dir, 'anchor'), fileName: part.filename || 'anchor' };
            await pipeline(part.file, createWriteStream(file.path));
            if (part.file.truncated) throw errors.fileTooLarge(file.fileName, deps.maxFileBytes);
          } else if (part.fieldname === 'bounding_box') {
            box = String(part.value);
          }
        }
        if (!file) throw errors.imageRequired();
        const anchorId = await explore.uploadAnchor(principalOf(request), request.params.dataset_id, file, box === undefined || box.trim() === '' ? undefined : parseBox(box));
        return { anchor_media_id: anchorId, anchor_type: 'UPLOAD' as const };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );

  r.get(
    '/api/v1/dataset/:dataset_id/media/:media_id/duplicates',
    {
      schema: {
        tags: ['explore'],
        summary: "The other media in this media's duplicate group (its level-0 cluster when that has more than one member)",
        params: Type.Object({ dataset_id: Type.String({ format: 'uuid' }), media_id: Type.String({ format: 'uuid' }) }),
        response: { 200: DuplicatesResponse, ...errorResponses(401, 404, 409, 422) },
      },
    },
    async (request) => {
      const { dataset_id, media_id } = request.params;
      return { media_id, duplicates: await explore.duplicates(principalOf(request), dataset_id, media_id) };
    },
  );
}

/** `x,y,width,height`, a JSON array of those four, or a JSON object {x, y, width, height}; pixels of the image. */
function parseBox(text: string): CropBox {
  let values: unknown;
  try {
    const parsed: unknown = JSON.parse(text.trim().startsWith('[') || text.trim().startsWith('{') ? text : `[${text}]`);
    values = Array.isArray(parsed) ? parsed : [(parsed as Record<string, unknown>).x, (parsed as Record<string, unknown>).y, (parsed as Record<string, unknown>).width, (parsed as Record<string, unknown>).height];
  } catch {
    values = null;
  }
  if (!Array.isArray(values) || values.length !== 4 || !values.every((v) => typeof v === 'number' && Number.isFinite(v) && v >= 0) || !(values[2] > 0 && values[3] > 0)) {
    throw errors.validation('bounding_box must be x,y,width,height: four non-negative numbers, width and height above 0');
  }
  const [left, top, width, height] = values as number[];
  return { left: left!, top: top!, width: width!, height: height! };
}
