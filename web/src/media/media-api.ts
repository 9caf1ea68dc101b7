import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { sendEdit } from '../annotations/send-edit';
import { api, unwrap } from '../api/client';
import type { paths } from '../api/schema';
import { nearestNeighbours } from './neighbours';

export type Media = paths['/api/v1/dataset/{dataset_id}/media/{media_id}']['get']['responses'][200]['content']['application/json'];

const mediaKey = (datasetId: string, mediaId: string) => ['media', datasetId, mediaId];

function getMedia(datasetId: string, mediaId: string) {
  return unwrap(api.GET('/api/v1/dataset/{dataset_id}/media/{media_id}', { params: { path: { dataset_id: datasetId, media_id: mediaId } } }));
}

export function useMedia(datasetId: string, mediaId: string) {
  return useQuery({ queryKey: mediaKey(datasetId, mediaId), queryFn: () => getMedia(datasetId, mediaId) });
}

/** The media of a duplicate group shown on the page, each read for its file name and thumbnail link. */
export const DUPLICATES_SHOWN = 12;

export function useDuplicates(datasetId: string, mediaId: string) {
  const ids = useQuery({
    queryKey: ['media-duplicates', datasetId, mediaId],
    queryFn: () =>
      unwrap(api.GET('/api/v1/dataset/{dataset_id}/media/{media_id}/duplicates', { params: { path: { dataset_id: datasetId, media_id: mediaId } } })),
  });
  const shown = ids.data?.duplicates.slice(0, DUPLICATES_SHOWN) ?? [];
  const media = useQueries({
    queries: shown.map((id) => ({ queryKey: mediaKey(datasetId, id), queryFn: () => getMedia(datasetId, id) })),
  });
  return { ids, media: media.flatMap((m) => (m.data ? [m.data] : [])), total: ids.data?.duplicates.length ?? 0 };
}

/** How many nearest neighbours the page shows. */
export const NEIGHBOURS_SHOWN = 6;

/** Not asked for a video (`enabled` false): Explore ranks by its frames, which have pages of their own. */
export function useNeighbours(datasetId: string, mediaId: string, enabled: boolean) {
  return useQuery({
    enabled,
    queryKey: ['media-neighbours', datasetId, mediaId],
    queryFn: async () => {
      const answer = await unwrap(
        api.GET('/api/v1/explore/{dataset_id}', {
          params: { path: { dataset_id: datasetId }, query: { threshold: 0, entity_type: 'IMAGES', page_number: 0, anchor_media_id: mediaId, anchor_type: 'MEDIA', sort_by: 'relevance', previews_limit: NEIGHBOURS_SHOWN + 1 } },
        }),
      );
      return nearestNeighbours(answer.clusters, mediaId, NEIGHBOURS_SHOWN);
    },
  });
}

/** Tag and label edits of one media item; each makes a new version, so the item is read again after. */
export function useMediaEdits(datasetId: string, mediaId: string) {
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: mediaKey(datasetId, mediaId) });
  const target = { media_ids: [mediaId] };
  const addTag = useMutation({ mutationFn: (tag: string) => sendEdit(datasetId, { kind: 'add-tag', tag }, target), onSuccess });
  const removeTag = useMutation({ mutationFn: (tag: string) => sendEdit(datasetId, { kind: 'remove-tag', tag }, target), onSuccess });
  const setLabel = useMutation({ mutationFn: (label: string | null) => sendEdit(datasetId, { kind: 'label', label }, target), onSuccess });
  return { addTag, removeTag, setLabel };
}
