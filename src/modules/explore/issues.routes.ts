import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../http/authenticate.js';
import { DatasetIdParams, errorResponses } from '../../http/schemas.js';
import { IssuesQuery, IssuesResponse } from './issues.schemas.js';
import { FILES_PER_PAGE, type IssuesService } from './issues.service.js';

export function issuesRoutes(app: FastifyInstance, deps: { issues: IssuesService }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    '/api/v1/dataset/:dataset_id/issues',
    {
      schema: {
        tags: ['explore'],
        summary: "How many media of the dataset have each issue type, and its corrupt files with the reason each failed to decode",
        params: DatasetIdParams,
        querystring: IssuesQuery,
        response: { 200: IssuesResponse, ...errorResponses(401, 404, 422) },
      },
    },
    async (request) => {
      const { page_number } = request.query;
      const { counts, objectCounts, corruptFiles } = await deps.issues.issues(principalOf(request), request.params.dataset_id, page_number);
      const { n_media, median_area, ...issues } = counts;
      return {
        n_media,
        median_area,
        issues,
        object_issues: objectCounts,
        corrupt_files: corruptFiles.map((f) => ({ file_name: f.file_name, reason: f.error, uploaded_at: f.created_at.toISOString() })),
        page_number,
        files_per_page: FILES_PER_PAGE,
      };
    },
  );
}
