import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';

/** Statuses in which the dataset is still changing, so its page follows it. */
export const BUSY_STATUSES = new Set(['INDEXING', 'READ ONLY']);

/** One dataset, followed every 2 s while it is indexing or read-only (no dataset stream exists in the API). */
export function useDataset(datasetId: string) {
  return useQuery({
    queryKey: ['dataset', datasetId],
    queryFn: () => unwrap(api.GET('/api/v1/dataset/{dataset_id}', { params: { path: { dataset_id: datasetId } } })),
    refetchInterval: (query) => (query.state.data && BUSY_STATUSES.has(query.state.data.status_new) ? 2_000 : false),
  });
}
