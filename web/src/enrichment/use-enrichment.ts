import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';

export function useEnrichmentModels(datasetId: string) {
  return useQuery({
    queryKey: ['enrichment', datasetId, 'models'],
    queryFn: () => unwrap(api.GET('/api/v1/enrichment/{dataset_id}/list_models', { params: { path: { dataset_id: datasetId } } })),
  });
}

/** What was applied to the dataset; followed every 2 s while this dataset is itself an enrichment in progress. */
export function useEnrichmentContext(datasetId: string) {
  return useQuery({
    queryKey: ['enrichment', datasetId, 'context'],
    queryFn: () => unwrap(api.GET('/api/v1/enrichment/{dataset_id}/context', { params: { path: { dataset_id: datasetId } } })),
    refetchInterval: (query) => (query.state.data?.status === 'IN_PROGRESS' ? 2_000 : false),
  });
}

/** Starts an enriched copy; the source turns READ ONLY meanwhile, so its dataset query is read again. */
export function useEnrichDataset(datasetId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (models: Record<string, string>) =>
      unwrap(api.POST('/api/v1/dataset/{dataset_id}/enrich_dataset', { params: { path: { dataset_id: datasetId } }, body: { enrichment_models: models } })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['dataset', datasetId] }),
  });
}
