import { describe, expect, it } from 'vitest';
import { DATASET_STATUSES, type DatasetStatus } from '../../src/core/dataset-status.js';
import {
  DATASET_OPERATIONS,
  type DatasetOperation,
  type StatusChange,
  finishTransition,
  indexingTransition,
  operationOf,
  retryTransition,
  startTransition,
  statusAfter,
  stopTransition,
} from '../../src/core/lifecycle.js';
import { TASK_TYPES, type TaskType } from '../../src/core/tasks.js';

/**
 * The lifecycle written out by hand from the spec (2.2, 3.1, 3.2, 4.1, 4.4, 4.7), independent of the table in
 * src/core/lifecycle.ts: what each operation does at its start, and what its task does to its dataset (and to the
 * source it reads) when it commits, stops and is retried.
 */
const STARTS: Record<DatasetOperation, { status: DatasetStatus | null; task: TaskType | null; onCopy: boolean; keepsPrevious: boolean }> = {
  process_files: { status: 'INDEXING', task: 'DATASET_CREATION', onCopy: false, keepsPrevious: false },
  add_media: { status: 'READ ONLY', task: 'MEDIA_ADDITION', onCopy: false, keepsPrevious: true },
  reindex: { status: 'READ ONLY', task: 'REINDEX', onCopy: false, keepsPrevious: true },
  create_snapshot: { status: null, task: null, onCopy: false, keepsPrevious: false },
  restore_snapshot: { status: 'READ ONLY', task: 'SNAPSHOT_RESTORE', onCopy: false, keepsPrevious: true },
  clone_snapshot: { status: null, task: 'SNAPSHOT_CLONE', onCopy: true, keepsPrevious: false },
  edit_annotations: { status: null, task: null, onCopy: false, keepsPrevious: false },
  import_custom_metadata: { status: null, task: 'CUSTOM_METADATA', onCopy: false, keepsPrevious: false },
  propagate_labels: { status: null, task: 'LABEL_PROPAGATION', onCopy: false, keepsPrevious: false },
  // The source is held READ ONLY and given back as it was.
  enrich_dataset: { status: 'READ ONLY', task: 'ENRICHMENT', onCopy: true, keepsPrevious: true },
  dedup: { status: null, task: 'DEDUP', onCopy: false, keepsPrevious: false },
  select_media: { status: null, task: 'SELECTION', onCopy: false, keepsPrevious: false },
  find_leakage: { status: null, task: 'LEAKAGE', onCopy: false, keepsPrevious: false },
  find_label_errors: { status: null, task: 'LABEL_ERRORS', onCopy: false, keepsPrevious: false },
};

const CHANGING: DatasetStatus[] = ['READ ONLY', 'INDEXING'];
const SOURCE = 'source-id';
const REASON = 'it broke';

/** Per task type, started from PARTIAL INDEX (config.previous_status where kept). */
const ENDS: Record<TaskType, { commit: StatusChange[]; stop: StatusChange[]; retry: StatusChange[]; indexing: StatusChange[] }> = {
  DATASET_CREATION: {
    commit: [{ dataset: 'own', from: ['INDEXING'], to: 'READY', set: {} }],
    stop: [{ dataset: 'own', from: ['INDEXING'], to: 'ERROR', set: { fatal_error_msg: REASON } }],
    retry: [{ dataset: 'own', from: ['ERROR'], to: 'INDEXING', set: { fatal_error_msg: null } }],
    indexing: [],
  },
  MEDIA_ADDITION: {
    commit: [{ dataset: 'own', from: CHANGING, to: 'PARTIAL INDEX', set: {} }],
    stop: [{ dataset: 'own', from: CHANGING, to: 'PARTIAL INDEX', set: { progress: 100 } }],
    retry: [],
    indexing: [{ dataset: 'own', from: ['READ ONLY'], to: 'INDEXING', set: {} }],
  },
  REINDEX: {
    commit: [{ dataset: 'own', from: CHANGING, to: 'READY', set: {} }],
    stop: [{ dataset: 'own', from: CHANGING, to: 'PARTIAL INDEX', set: { progress: 100 } }],
    retry: [],
    indexing: [{ dataset: 'own', from: ['READ ONLY'], to: 'INDEXING', set: {} }],
  },
  SNAPSHOT_RESTORE: {
    commit: [{ dataset: 'own', from: ['READ ONLY'], to: 'READY', set: {} }],
    stop: [{ dataset: 'own', from: ['READ ONLY'], to: 'PARTIAL INDEX', set: { progress: 100 } }],
    retry: [],
    indexing: [],
  },
  SNAPSHOT_CLONE: {
    commit: [{ dataset: 'own', from: ['INDEXING'], to: 'READY', set: {} }],
    stop: [{ dataset: 'own', from: ['INDEXING'], to: 'ERROR', set: { fatal_error_msg: REASON } }],
    retry: [],
    indexing: [],
  },
  ENRICHMENT: {
    commit: [
      { dataset: 'source', from: ['READ ONLY'], to: 'PARTIAL INDEX', set: { progress: 100 } },
      { dataset: 'own', from: ['INDEXING'], to: 'READY', set: {} },
    ],
    stop: [
      { dataset: 'source', from: ['READ ONLY'], to: 'PARTIAL INDEX', set: { progress: 100 } },
      { dataset: 'own', from: ['INDEXING'], to: 'ERROR', set: { fatal_error_msg: REASON } },
    ],
    retry: [],
    indexing: [],
  },
  // An import and a propagation keep the status: their head swap is all they change.
  CUSTOM_METADATA: { commit: [], stop: [], retry: [], indexing: [] },
  LABEL_PROPAGATION: { commit: [], stop: [], retry: [], indexing: [] },
  DEDUP: { commit: [], stop: [], retry: [], indexing: [] },
  SELECTION: { commit: [], stop: [], retry: [], indexing: [] },
  LEAKAGE: { commit: [], stop: [], retry: [], indexing: [] },
  LABEL_ERRORS: { commit: [], stop: [], retry: [], indexing: [] },
};

function configOf(type: TaskType): Record<string, unknown> {
  const operation = operationOf(type);
  return { ...(STARTS[operation].keepsPrevious ? { previous_status: 'PARTIAL INDEX' } : {}), ...(STARTS[operation].onCopy ? { source_dataset_id: SOURCE } : {}) };
}

describe('startTransition', () => {
  for (const operation of DATASET_OPERATIONS) {
    it(`${operation}: the status it sets, the task it creates, what the task keeps`, () => {
      const expected = STARTS[operation];
      const from = DATASET_STATUSES.find((s) => {
        try {
          startTransition(operation, { id: SOURCE, status: s }, []);
          return true;
        } catch {
          return false;
        }
      })!;
      const plan = startTransition(operation, { id: SOURCE, status: from }, []);
      expect(plan).toEqual({
        status: expected.status,
        clearError: expected.status === 'INDEXING',
        task: expected.task,
        taskOn: expected.onCopy ? 'copy' : 'own',
        config: { ...(expected.keepsPrevious ? { previous_status: from } : {}), ...(expected.onCopy ? { source_dataset_id: SOURCE } : {}) },
      });
    });
  }

  it('throws the guard’s 409 before planning anything', () => {
    expect(() => startTransition('reindex', { id: SOURCE, status: 'READY' }, [])).toThrow("Operation 'reindex' needs the dataset PARTIAL INDEX; it is READY");
    expect(() => startTransition('add_media', { id: SOURCE, status: 'READY' }, ['ENRICHMENT'])).toThrow(
      "Operation 'add_media' is blocked while ENRICHMENT task is running",
    );
  });

  it('each task type is started by exactly one operation', () => {
    for (const type of TASK_TYPES) expect(DATASET_OPERATIONS.filter((op) => STARTS[op].task === type), type).toEqual([operationOf(type)]);
  });
});

describe('finish, stop, retry and indexing transitions over every task type', () => {
  for (const type of TASK_TYPES) {
    it(type, () => {
      const task = { task_type: type, config: configOf(type) };
      expect(finishTransition(task), 'commit').toEqual(ENDS[type].commit);
      expect(stopTransition(task, REASON), 'stop').toEqual(ENDS[type].stop);
      expect(retryTransition(task), 'retry').toEqual(ENDS[type].retry);
      expect(indexingTransition(task), 'indexing').toEqual(ENDS[type].indexing);
    });
  }

  it('a media batch with auto_reindex commits READY', () => {
    const task = { task_type: 'MEDIA_ADDITION' as const, config: { ...configOf('MEDIA_ADDITION'), auto_reindex: true } };
    expect(finishTransition(task)).toEqual([{ dataset: 'own', from: CHANGING, to: 'READY', set: {} }]);
  });

  it('goes back only to a status the task kept: none kept, nothing changes', () => {
    expect(stopTransition({ task_type: 'REINDEX', config: {} }, REASON)).toEqual([]);
    expect(stopTransition({ task_type: 'ENRICHMENT', config: { source_dataset_id: SOURCE, previous_status: 'nonsense' } }, REASON)).toEqual([
      { dataset: 'own', from: ['INDEXING'], to: 'ERROR', set: { fatal_error_msg: REASON } },
    ]);
  });

  it('statusAfter reads `previous` from the config', () => {
    expect(statusAfter('READY', {})).toBe('READY');
    expect(statusAfter('previous', { previous_status: 'ERROR' })).toBe('ERROR');
    expect(statusAfter('previous', {})).toBeNull();
  });
});
