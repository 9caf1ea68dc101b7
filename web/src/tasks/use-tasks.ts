import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { type TaskQuery, apiTaskQuery, isLive } from './task-query';

/** One page of the Task Manager, followed every 2 s while a task on it is still INITIALIZING or RUNNING. */
export function useTasks(q: TaskQuery) {
  const query = apiTaskQuery(q);
  return useQuery({
    queryKey: ['tasks', query],
    queryFn: () => unwrap(api.GET('/api/v1/tasks', { params: { query } })),
    placeholderData: keepPreviousData,
    refetchInterval: (current) => (current.state.data?.tasks.some(isLive) ? 2_000 : false),
  });
}

/** The datasets, types and initiators the list can be narrowed to, within the chosen start-time range. */
export function useTaskFilters(q: TaskQuery) {
  const { start_time_from, start_time_to } = apiTaskQuery(q);
  const query = { start_time_from, start_time_to };
  return useQuery({
    queryKey: ['tasks', 'filters', query],
    queryFn: () => unwrap(api.GET('/api/v1/tasks/filters', { params: { query } })),
    placeholderData: keepPreviousData,
  });
}

/**
 * Abort or retry a task; either way the list is read again, since the refusal itself means it changed. The outcome
 * (the error, or null) is reported from here rather than from mutate(), whose callbacks are lost once the row is gone.
 */
export function useTaskAction(action: 'abort' | 'retry', onOutcome: (error: unknown) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (taskId: string) =>
      unwrap(
        action === 'abort'
          ? api.POST('/api/v1/tasks/{task_id}/abort', { params: { path: { task_id: taskId } } })
          : api.POST('/api/v1/tasks/{task_id}/retry', { params: { path: { task_id: taskId } } }),
      ),
    onSuccess: () => onOutcome(null),
    onError: onOutcome,
    onSettled: () => client.invalidateQueries({ queryKey: ['tasks'] }),
  });
}
