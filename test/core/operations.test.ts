import { describe, expect, it } from 'vitest';
import { DATASET_STATUSES } from '../../src/core/dataset-status.js';
import { checkOperation } from '../../src/core/operations.js';
import { TASK_TYPES } from '../../src/core/tasks.js';

describe('checkOperation', () => {
  it('add_media starts only from READY or PARTIAL INDEX', () => {
    for (const status of DATASET_STATUSES) {
      expect(checkOperation('add_media', status, []).ok).toBe(status === 'READY' || status === 'PARTIAL INDEX');
    }
  });

  it('reindex starts only from PARTIAL INDEX', () => {
    for (const status of DATASET_STATUSES) expect(checkOperation('reindex', status, []).ok).toBe(status === 'PARTIAL INDEX');
    expect(checkOperation('reindex', 'READ ONLY', [])).toEqual({ ok: false, reason: 'status', status: 'READ ONLY' });
  });

  it('names a running blocker before the status it causes', () => {
    expect(checkOperation('add_media', 'READ ONLY', ['MEDIA_ADDITION'])).toEqual({ ok: false, reason: 'blocked', by: 'MEDIA_ADDITION' });
    expect(checkOperation('add_media', 'READ ONLY', ['REINDEX'])).toEqual({ ok: false, reason: 'blocked', by: 'REINDEX' });
    expect(checkOperation('reindex', 'READ ONLY', ['SNAPSHOT_RESTORE'])).toEqual({ ok: false, reason: 'blocked', by: 'SNAPSHOT_RESTORE' });
  });

  it('is not blocked by a clone, which runs on another dataset', () => {
    for (const type of TASK_TYPES) {
      const result = checkOperation('add_media', 'READY', [type]);
      expect(result.ok).toBe(type === 'SNAPSHOT_CLONE');
    }
  });
});
