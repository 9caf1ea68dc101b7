import { describe, expect, it } from 'vitest';
import {
  apiTaskQuery,
  canAbort,
  canRetry,
  humanize,
  pageCount,
  sortedBy,
  taskQueryFromParams,
  taskQueryToParams,
  withFilter,
} from '../../web/src/tasks/task-query.js';

const parse = (search: string) => taskQueryFromParams(new URLSearchParams(search));

describe('task query ↔ URL params', () => {
  it('reads the defaults from an empty URL and writes them back as nothing', () => {
    const q = parse('');
    expect(q).toEqual({ sort_by: 'start_time', sort_order: 'desc', page: 1, page_size: 20 });
    expect(taskQueryToParams(q).toString()).toBe('');
  });

  it('round-trips every filter, the sort and the page', () => {
    const search = 'dataset_name=alpha&task_type=MEDIA_ADDITION&task_status=FAILED&created_by=a%40b.c&start_from=2026-01-02T10%3A00&start_to=2026-01-03T00%3A00&sort_by=status&sort_order=asc&page=3&page_size=50';
    const q = parse(search);
    expect(q).toMatchObject({ dataset_name: 'alpha', task_type: 'MEDIA_ADDITION', task_status: 'FAILED', created_by: 'a@b.c', start_from: '2026-01-02T10:00', sort_by: 'status', sort_order: 'asc', page: 3, page_size: 50 });
    expect(taskQueryToParams(q).toString()).toBe(search);
  });

  it('drops values the API would refuse and clamps the page size to 5–50', () => {
    expect(parse('task_type=upload%20x&task_status=DONE&sort_by=name&sort_order=up&page=0&start_from=yesterday')).toEqual(parse(''));
    expect(parse('page_size=2').page_size).toBe(5);
    expect(parse('page_size=500').page_size).toBe(50);
    expect(parse('page=-1').page).toBe(1);
    expect(parse('page=x').page).toBe(1);
  });

  it('sends the start-time range as instants and leaves out what is unset', () => {
    const q = parse('start_from=2026-01-02T10:00&task_status=RUNNING');
    expect(apiTaskQuery(q)).toEqual({
      task_status: 'RUNNING',
      start_time_from: new Date(2026, 0, 2, 10, 0).toISOString(),
      sort_by: 'start_time',
      sort_order: 'desc',
      page: 1,
      page_size: 20,
    });
  });

  it('goes back to page 1 when a filter or the sort changes; a second click on a header flips the order', () => {
    const q = parse('page=4&sort_by=status&sort_order=desc');
    expect(withFilter(q, { task_type: 'REINDEX' })).toMatchObject({ task_type: 'REINDEX', page: 1, sort_by: 'status' });
    expect(sortedBy(q, 'status')).toMatchObject({ sort_by: 'status', sort_order: 'asc', page: 1 });
    expect(sortedBy(sortedBy(q, 'status'), 'status').sort_order).toBe('desc');
    expect(sortedBy(q, 'created_by')).toMatchObject({ sort_by: 'created_by', sort_order: 'desc' });
  });

  it('counts pages, one at least', () => {
    expect(pageCount(0, 20)).toBe(1);
    expect(pageCount(20, 20)).toBe(1);
    expect(pageCount(21, 20)).toBe(2);
  });
});

describe('task actions', () => {
  it('offer Abort on a running dataset creation and Retry on a failed or aborted one, nothing else', () => {
    expect(canAbort({ task_type: 'DATASET_CREATION', status: 'RUNNING' })).toBe(true);
    expect(canAbort({ task_type: 'DATASET_CREATION', status: 'INITIALIZING' })).toBe(true);
    expect(canAbort({ task_type: 'DATASET_CREATION', status: 'COMPLETED' })).toBe(false);
    expect(canAbort({ task_type: 'REINDEX', status: 'RUNNING' })).toBe(false);
    expect(canRetry({ task_type: 'DATASET_CREATION', status: 'FAILED' })).toBe(true);
    expect(canRetry({ task_type: 'DATASET_CREATION', status: 'ABORTED' })).toBe(true);
    expect(canRetry({ task_type: 'DATASET_CREATION', status: 'RUNNING' })).toBe(false);
    expect(canRetry({ task_type: 'MEDIA_ADDITION', status: 'FAILED' })).toBe(false);
  });

  it('humanize API words', () => {
    expect(humanize('DATASET_CREATION')).toBe('Dataset creation');
  });
});
