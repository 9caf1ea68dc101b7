import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { api, unwrap } from '../api/client';
import type { paths } from '../api/schema';
import { findNewClone } from './clone-lookup';

export type Snapshot = paths['/api/v1/dataset/{dataset_id}/snapshot']['get']['responses'][200]['content']['application/json'][number];

const snapshotsKey = (datasetId: string) => ['snapshots', datasetId];

/** The dataset's snapshots, read again every 2 s while a restore runs (the dataset READ ONLY, a snapshot restoring). */
export function useSnapshots(datasetId: string, readOnly: boolean) {
  const snapshots = useQuery({
    queryKey: snapshotsKey(datasetId),
    queryFn: () => unwrap(api.GET('/api/v1/dataset/{dataset_id}/snapshot', { params: { path: { dataset_id: datasetId } } })),
    refetchInterval: (query) => (readOnly || query.state.data?.some((s) => s.is_restoring) ? 2_000 : false),
  });
  // Once the dataset is writable again, the list is read once more to drop the restoring flag.
  const { refetch } = snapshots;
  const wasReadOnly = useRef(readOnly);
  useEffect(() => {
    if (wasReadOnly.current && !readOnly) void refetch();
    wasReadOnly.current = readOnly;
  }, [readOnly, refetch]);
  return snapshots;
}

const listDatasets = () => unwrap(api.GET('/api/v1/datasets', { params: { query: { limit: 1000, offset: 0 } } }));

/** Create, rename, restore, clone and delete; each reads the snapshots and the dataset again after. */
export function useSnapshotActions(datasetId: string) {
  const queryClient = useQueryClient();
  const onSuccess = () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: snapshotsKey(datasetId) }), queryClient.invalidateQueries({ queryKey: ['dataset', datasetId] })]);
  const path = { dataset_id: datasetId };
  const snapshotPath = (id: string) => ({ path: { dataset_id: datasetId, snapshot_id: id } });

  const create = useMutation({
    mutationFn: (body: { name: string; description: string }) => unwrap(api.POST('/api/v1/dataset/{dataset_id}/snapshot', { params: { path }, body })),
    onSuccess,
  });
  const rename = useMutation({
    mutationFn: ({ id, ...body }: { id: string; name: string; description: string }) =>
      unwrap(api.PATCH('/api/v1/dataset/{dataset_id}/snapshot/{snapshot_id}', { params: snapshotPath(id), body })),
    onSuccess,
  });
  const restore = useMutation({
    mutationFn: (id: string) => unwrap(api.POST('/api/v1/dataset/{dataset_id}/snapshot/{snapshot_id}/restore', { params: snapshotPath(id) })),
    onSuccess,
  });
  const remove = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/api/v1/dataset/{dataset_id}/snapshot/{snapshot_id}', { params: snapshotPath(id) })),
    onSuccess,
  });
  const clone = useMutation({
    mutationFn: async ({ id, datasetName }: { id: string; datasetName: string }) => {
      const before = await listDatasets();
      await unwrap(api.POST('/api/v1/dataset/{dataset_id}/snapshot/{snapshot_id}/clone', { params: snapshotPath(id) }));
      // The new dataset's row is written with the clone's task, before the 202.
      return findNewClone(before, await listDatasets(), { id: datasetId, name: datasetName }) ?? null;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['datasets'] }),
  });
  return { create, rename, restore, remove, clone };
}
