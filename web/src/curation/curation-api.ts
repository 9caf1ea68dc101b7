import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';

/** The dataset's issue counts and a page of its corrupt files; read again when its status (its head) changes. */
export function useIssues(datasetId: string, page: number, status: string | undefined) {
  return useQuery({
    queryKey: ['issues', datasetId, page, status],
    queryFn: () => unwrap(api.GET('/api/v1/dataset/{dataset_id}/issues', { params: { path: { dataset_id: datasetId }, query: { page_number: page } } })),
    enabled: status !== undefined,
    placeholderData: keepPreviousData,
  });
}
