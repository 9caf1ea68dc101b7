import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, unwrap } from '../api/client';
import type { paths } from '../api/schema';

export type MapAnswer = paths['/api/v1/dataset/{dataset_id}/map']['get']['responses'][200]['content']['application/json'];
export type SelectionAnswer = paths['/api/v1/dataset/{dataset_id}/map/selection']['post']['responses'][200]['content']['application/json'];
export type Shape = { rect: { min_x: number; min_y: number; max_x: number; max_y: number } } | { polygon: number[][] };

/** The route's largest page: 1M points come in 20 requests, the first an even sample of the whole map. */
export const MAP_PAGE = 50_000;

/**
 * Every point of the map, page after page until the last; the status is in the key, so a reindex (a new map) is
 * read again. Structural sharing is off: comparing 50,000-point pages deeply on every page would cost more than the read.
 */
export function useMapPoints(datasetId: string, status: string | undefined) {
  const query = useInfiniteQuery({
    queryKey: ['map', datasetId, status],
    queryFn: ({ pageParam }) =>
      unwrap(api.GET('/api/v1/dataset/{dataset_id}/map', { params: { path: { dataset_id: datasetId }, query: { limit: MAP_PAGE, ...(pageParam ? { cursor: pageParam } : {}) } } })),
    initialPageParam: '',
    getNextPageParam: (last: MapAnswer) => last.next_cursor ?? undefined,
    enabled: status !== undefined,
    structuralSharing: false,
    staleTime: 60_000,
  });
  const { hasNextPage, isFetchingNextPage, isError, fetchNextPage } = query;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && !isError) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, isError, fetchNextPage]);
  return query;
}

/** The count (and the vql) of the media inside a shape; the ids themselves are not needed here. */
export function useMapSelection(datasetId: string) {
  return useMutation({
    mutationFn: (shape: Shape) => unwrap(api.POST('/api/v1/dataset/{dataset_id}/map/selection', { params: { path: { dataset_id: datasetId } }, body: { ...shape, limit: 1 } })),
  });
}
