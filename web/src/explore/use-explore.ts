import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, postForm, unwrap } from '../api/client';
import type { components, paths } from '../api/schema';
import type { Anchor, ExploreApiQuery, FieldType, ViewQuery } from './explore-query';
import type { ExportItem } from './selection';

export type ExploreAnswer = paths['/api/v1/explore/{dataset_id}']['get']['responses'][200]['content']['application/json'];
export type Cluster = ExploreAnswer['clusters'][number];
export type Preview = Cluster['previews'][number];
export type ExportStatus = paths['/api/v1/dataset/{dataset_id}/export_status']['get']['responses'][200]['content']['application/json'];
type SavedView = components['schemas']['def-5'];

const path = (datasetId: string) => ({ path: { dataset_id: datasetId } });

/** One page of clusters; the previous page stays on screen while the next one loads. */
export function useExplore(datasetId: string, query: ExploreApiQuery, datasetStatus: string | undefined) {
  return useQuery({
    // The status is in the key: a dataset that becomes READY (or gets a new version) is asked again.
    queryKey: ['explore', datasetId, datasetStatus, query],
    queryFn: () => unwrap(api.GET('/api/v1/explore/{dataset_id}', { params: { ...path(datasetId), query } })),
    placeholderData: keepPreviousData,
    enabled: datasetStatus !== undefined,
  });
}

export function useTags(datasetId: string) {
  return useQuery({
    queryKey: ['explore', datasetId, 'tags'],
    queryFn: () => unwrap(api.GET('/api/v1/dataset/{dataset_id}/tags', { params: path(datasetId) })),
  });
}

export function useLabels(datasetId: string) {
  return useQuery({
    queryKey: ['explore', datasetId, 'labels'],
    queryFn: () => unwrap(api.GET('/api/v1/dataset/{dataset_id}/labels', { params: path(datasetId) })),
  });
}

export function useFieldSchema(datasetId: string) {
  return useQuery({
    queryKey: ['explore', datasetId, 'fields'],
    queryFn: async () => {
      const schema = await unwrap(api.GET('/api/v1/dataset/{dataset_id}/custom_metadata/schema', { params: path(datasetId) }));
      return schema.fields as Array<{ name: string; type: FieldType }>;
    },
  });
}

/** Embeds an uploaded image as an anchor (multipart, so not through the typed client). */
export async function uploadAnchor(datasetId: string, file: File): Promise<Anchor> {
  const form = new FormData();
  form.append('file', file, file.name);
  const answer = (await postForm(`/api/v1/dataset/${encodeURIComponent(datasetId)}/search-image-similarity`, form)) as { anchor_media_id: string };
  return { id: answer.anchor_media_id, type: 'UPLOAD', name: file.name };
}

export type EditTarget = { media_ids: string[] } | { cluster_ids: string[] };
export type Edit = { kind: 'add-tag' | 'remove-tag'; tag: string } | { kind: 'label'; label: string | null };

/** Tags or a label for the selection: one request for its media and one for its clusters, then the grid again. */
export function useEditSelection(datasetId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ edit, targets }: { edit: Edit; targets: EditTarget[] }) => {
      let changed = 0;
      for (const target of targets) {
        const params = path(datasetId);
        const result =
          edit.kind === 'label'
            ? await unwrap(api.PUT('/api/v1/dataset/{dataset_id}/media/label', { params, body: { label: edit.label, ...target } }))
            : edit.kind === 'add-tag'
              ? await unwrap(api.POST('/api/v1/dataset/{dataset_id}/media/tags', { params, body: { tags: [edit.tag], ...target } }))
              : await unwrap(api.POST('/api/v1/dataset/{dataset_id}/media/tags/remove', { params, body: { tags: [edit.tag], ...target } }));
        changed += result.changed;
      }
      return changed;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['explore', datasetId] }),
  });
}

export function useStartExport(datasetId: string) {
  return useMutation({
    mutationFn: ({ items, format, includeImages }: { items: ExportItem[]; format: 'json' | 'parquet'; includeImages: boolean }) =>
      unwrap(
        api.POST('/api/v1/dataset/{dataset_id}/export_entities_async', {
          params: { ...path(datasetId), query: { export_format: format, include_images: includeImages } },
          body: { media_selection: items },
        }),
      ),
  });
}

/** An export followed every 1.5 s until it is done. */
export function useExportStatus(datasetId: string, exportId: string | null) {
  return useQuery({
    queryKey: ['export-status', datasetId, exportId],
    queryFn: () => unwrap(api.GET('/api/v1/dataset/{dataset_id}/export_status', { params: { ...path(datasetId), query: { export_task_id: exportId! } } })),
    enabled: exportId !== null,
    refetchInterval: (query) => (query.state.data && query.state.data.status !== 'PENDING' ? false : 1_500),
  });
}

export function useSaveView(datasetId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ query, name, monitoring, alerting }: { query: ViewQuery; name: string; monitoring: boolean; alerting: boolean }): Promise<SavedView> =>
      unwrap(
        api.POST('/api/v1/dataset/{dataset_id}/views', {
          params: { ...path(datasetId), query },
          body: { name, monitoring_enabled: monitoring, alerting_enabled: alerting },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['views', datasetId] }),
  });
}
