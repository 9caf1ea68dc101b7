import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, postForm, unwrap } from '../api/client';
import type { paths } from '../api/schema';
import { BUSY_STATUSES } from './use-dataset';

export type Dataset = paths['/api/v1/datasets']['get']['responses'][200]['content']['application/json'][number];
export type AccessRole = 'viewer' | 'editor';

export const DATASETS_PAGE_SIZE = 100;

/**
 * One page of the datasets the user can see, newest first. It asks for one row more than it shows to know whether
 * a next page exists, and follows the page every 2 s while a dataset on it is being created or changed.
 */
export function useDatasetsPage(page: number) {
  return useQuery({
    queryKey: ['datasets', page],
    queryFn: async () => {
      const rows = await unwrap(
        api.GET('/api/v1/datasets', { params: { query: { limit: DATASETS_PAGE_SIZE + 1, offset: page * DATASETS_PAGE_SIZE } } }),
      );
      return { datasets: rows.slice(0, DATASETS_PAGE_SIZE), hasMore: rows.length > DATASETS_PAGE_SIZE };
    },
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.datasets.some((d) => BUSY_STATUSES.has(d.status_new)) ? 2_000 : false),
  });
}

/** After any change to a dataset: its list and its own page read it again. */
function useRefreshDatasets() {
  const queryClient = useQueryClient();
  return (datasetId: string) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['datasets'] }),
      queryClient.invalidateQueries({ queryKey: ['dataset', datasetId] }),
    ]);
}

export function useRenameDataset(datasetId: string) {
  const refresh = useRefreshDatasets();
  return useMutation({
    mutationFn: (displayName: string) =>
      unwrap(api.PATCH('/api/v1/dataset/{dataset_id}', { params: { path: { dataset_id: datasetId } }, body: { display_name: displayName } })),
    onSuccess: () => refresh(datasetId),
  });
}

export function useDeleteDataset(datasetId: string) {
  const refresh = useRefreshDatasets();
  return useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/v1/dataset/{dataset_id}', { params: { path: { dataset_id: datasetId } } })),
    onSuccess: () => refresh(datasetId),
  });
}

/** Who has access to the dataset: the owner first, then the users it is shared with. */
export function useDatasetAccess(datasetId: string) {
  return useQuery({
    queryKey: ['dataset-access', datasetId],
    queryFn: () => unwrap(api.GET('/api/v1/manage/{dataset_id}/share', { params: { path: { dataset_id: datasetId } } })),
  });
}

export function useShareDataset(datasetId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    // The share route reads form fields; openapi.json does not describe them, so it goes as a multipart form.
    mutationFn: ({ email, role }: { email: string; role: AccessRole }) => {
      const form = new FormData();
      form.append('user_email', email);
      form.append('role', role);
      return postForm(`/api/v1/dataset/${encodeURIComponent(datasetId)}/share`, form);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['dataset-access', datasetId] }),
  });
}

export function useRevokeAccess(datasetId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) =>
      unwrap(api.DELETE('/api/v1/manage/{dataset_id}/share', { params: { path: { dataset_id: datasetId }, query: { user_email: email } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['dataset-access', datasetId] }),
  });
}
