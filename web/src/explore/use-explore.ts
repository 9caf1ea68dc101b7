import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Edit, type EditTarget, sendEdit } from '../annotations/send-edit';
import { api, postForm, unwrap } from '../api/client';
import type { paths } from '../api/schema';
import type { Anchor, ExploreApiQuery, FieldType, ViewQuery } from './explore-query';
import type { ExportItem } from './selection';

export type ExploreAnswer = paths['/api/v1/explore/{dataset_id}']['get']['responses'][200]['content']['application/json'];
export type Cluster = ExploreAnswer['clusters'][number];
export type Preview = Cluster['previews'][number];

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

export function useEditSelection(datasetId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ edit, targets }: { edit: Edit; targets: EditTarget[] }) => {
      let changed = 0;
      for (const target of targets) changed += await sendEdit(datasetId, edit, target);
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

export function useSaveView(datasetId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ query, name, monitoring, alerting }: { query: ViewQuery; name: string; monitoring: boolean; alerting: boolean }) =>
      unwrap(
        api.POST('/api/v1/dataset/{dataset_id}/views', {
          params: { ...path(datasetId), query },
          body: { name, monitoring_enabled: monitoring, alerting_enabled: alerting },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['views', datasetId] }),
  });
}
