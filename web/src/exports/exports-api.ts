import { useMutation, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { type ExportFormat, isFinished } from './export-log';

/** Starts a full export of the dataset; answers its id (the export task). */
export function useStartExport(datasetId: string) {
  return useMutation({
    mutationFn: (options: { fileName: string; format: ExportFormat; includeImages: boolean }) =>
      unwrap(
        api.GET('/api/v1/dataset/{dataset_id}/export_context_async', {
          params: {
            path: { dataset_id: datasetId },
            query: { file_name: options.fileName, export_format: options.format, include_images: options.includeImages },
          },
        }),
      ),
  });
}

/** An export's status (none asked while `exportId` is null), read again every 1.5 s until it is finished. */
export function useExportStatus(datasetId: string, exportId: string | null) {
  return useQuery({
    queryKey: ['export-status', datasetId, exportId],
    queryFn: () =>
      unwrap(api.GET('/api/v1/dataset/{dataset_id}/export_status', { params: { path: { dataset_id: datasetId }, query: { export_task_id: exportId! } } })),
    enabled: exportId !== null,
    refetchInterval: (query) => (query.state.error || (query.state.data && isFinished(query.state.data.status)) ? false : 1_500),
    // The signed download link outlives the page's use of it; a finished export is not read again.
    staleTime: (query) => (query.state.data && isFinished(query.state.data.status) ? Number.POSITIVE_INFINITY : 0),
  });
}
