import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../http/authenticate.js';
import { readForm } from '../../http/multipart.js';
import { DatasetIdParams, FileField, errorResponses } from '../../http/schemas.js';
import { mediaLinker } from '../media/media-links.js';
import type { MediaService } from '../media/media.service.js';
import { anchorFormShape, withAnchorUpload } from './anchor-upload.js';
import { presentClusters } from './explore.presenter.js';
import { CLUSTERS_PER_PAGE } from './cluster-page.js';
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
        form: Type.Object({
          file: FileField('The image to search by'),
          bounding_box: Type.Optional(Type.String({ description: 'A region of it: x,y,width,height in its pixels', examples: ['10,20,200,150'] })),
        }),
        params: DatasetIdParams,
        response: { 200: SimilarityAnchor, ...errorResponses(400, 401, 404, 409, 413, 422) },
      },
    },
    async (request) => {
      const { dataset_id } = request.params;
      const anchorId = await readForm(request, anchorFormShape(deps.maxFileBytes), (parts) =>
        withAnchorUpload(parts, deps.maxFileBytes, (file, crop) => explore.uploadAnchor(principalOf(request), dataset_id, file, crop)),
      );
      return { anchor_media_id: anchorId, anchor_type: 'UPLOAD' as const };
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
