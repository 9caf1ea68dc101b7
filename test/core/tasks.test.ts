import { describe, expect, it } from 'vitest';
import { TASK_STATUSES, TASK_TYPES, type TaskPhase, canAbort, canRetry } from '../../src/core/tasks.js';

describe('canAbort', () => {
  const cases = TASK_TYPES.flatMap((task_type) =>
    TASK_STATUSES.flatMap((status) => (['work', 'commit'] as TaskPhase[]).map((phase) => ({ task_type, status, phase }))),
  );
  it.each(cases)('$task_type $status in $phase', (task) => {
    const expected = task.task_type === 'DATASET_CREATION' && (task.status === 'INITIALIZING' || task.status === 'RUNNING') && task.phase === 'work';
    expect(canAbort(task).ok).toBe(expected);
  });

  it('explains why the commit phase refuses', () => {
    expect(canAbort({ task_type: 'DATASET_CREATION', status: 'RUNNING', phase: 'commit' })).toEqual({
      ok: false,
      reason: 'it is in its final commit phase',
    });
  });
});

describe('canRetry', () => {
  const cases = TASK_TYPES.flatMap((task_type) => TASK_STATUSES.map((status) => ({ task_type, status })));
  it.each(cases)('$task_type $status', (task) => {
    const expected = task.task_type === 'DATASET_CREATION' && (task.status === 'FAILED' || task.status === 'ABORTED');
    expect(canRetry(task).ok).toBe(expected);
  });
});
