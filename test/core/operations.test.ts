import { describe, expect, it } from 'vitest';
import { DATASET_STATUSES, type DatasetStatus } from '../../src/core/dataset-status.js';
import { DATASET_OPERATIONS, type DatasetOperation, checkOperation, requireOperation } from '../../src/core/operations.js';
import { TASK_TYPES, type TaskType } from '../../src/core/tasks.js';
import { AppError } from '../../src/core/errors.js';

/**
 * The spec's rules written out by hand (3.1, 4.1 rules 1 and 3, 4.7), independent of the tables in
 * src/core/operations.ts, so that a change to either shows up here.
 */
const STARTS_FROM: Record<DatasetOperation, DatasetStatus[]> = {
  // Processing a new dataset's uploads checks its transaction, not its status.
  process_files: ['READY', 'READ ONLY', 'PARTIAL INDEX', 'INDEXING', 'ERROR'],
  add_media: ['READY', 'PARTIAL INDEX'],
  reindex: ['PARTIAL INDEX'],
  create_snapshot: ['READY'],
  restore_snapshot: ['READY', 'PARTIAL INDEX', 'ERROR'],
  clone_snapshot: ['READY', 'PARTIAL INDEX', 'ERROR'],
  edit_annotations: ['READY', 'PARTIAL INDEX'],
  import_custom_metadata: ['READY', 'PARTIAL INDEX'],
  propagate_labels: ['READY', 'PARTIAL INDEX'],
  // Spec 4.4: the source must be READY.
  enrich_dataset: ['READY'],
  dedup: ['READY', 'PARTIAL INDEX'],
  select_media: ['READY', 'PARTIAL INDEX'],
  // Issue 29: a leakage run reads the head's index.
  find_leakage: ['READY', 'PARTIAL INDEX'],
  find_label_errors: ['READY', 'PARTIAL INDEX'],
};

const BLOCKERS: Record<DatasetOperation, TaskType[]> = {
  // One creation at a time.
  process_files: ['DATASET_CREATION'],
  // A media batch or reindex replaces the head with its own fork on commit: an import or propagation
  // committed meanwhile would be lost, so they exclude each other both ways.
  add_media: ['DATASET_CREATION', 'MEDIA_ADDITION', 'REINDEX', 'ENRICHMENT', 'CUSTOM_METADATA', 'LABEL_PROPAGATION', 'SNAPSHOT_RESTORE', 'DEDUP', 'SELECTION'],
  reindex: ['DATASET_CREATION', 'MEDIA_ADDITION', 'REINDEX', 'ENRICHMENT', 'CUSTOM_METADATA', 'LABEL_PROPAGATION', 'SNAPSHOT_RESTORE', 'DEDUP', 'SELECTION'],
  // Rule 1: creation, enrichment, media addition, re-indexing, label propagation, custom metadata import, restore.
  create_snapshot: ['DATASET_CREATION', 'ENRICHMENT', 'MEDIA_ADDITION', 'REINDEX', 'LABEL_PROPAGATION', 'CUSTOM_METADATA', 'SNAPSHOT_RESTORE', 'DEDUP', 'SELECTION'],
  // Rule 3: any major operation, including another restore or clone.
  // (Issue 29's dedup, selection, leakage and label-errors runs are tasks on the dataset like the others.)
  restore_snapshot: ['DATASET_CREATION', 'MEDIA_ADDITION', 'REINDEX', 'ENRICHMENT', 'CUSTOM_METADATA', 'LABEL_PROPAGATION', 'SNAPSHOT_RESTORE', 'SNAPSHOT_CLONE', 'DEDUP', 'SELECTION', 'LEAKAGE', 'LABEL_ERRORS'],
  // Rule 4: a clone reads a sealed snapshot and blocks nothing; only the status table applies.
  clone_snapshot: [],
  // Edits are small versions on the head: only tasks that replace the head with a fork made earlier block them
  // (an import and a propagation apply to the head as it is when they commit, so edits go on beside them).
  edit_annotations: ['DATASET_CREATION', 'MEDIA_ADDITION', 'REINDEX', 'ENRICHMENT', 'SNAPSHOT_RESTORE'],
  // One import at a time (field types are checked against the head when it starts), none beside a head replacer.
  import_custom_metadata: ['DATASET_CREATION', 'MEDIA_ADDITION', 'REINDEX', 'ENRICHMENT', 'CUSTOM_METADATA', 'LABEL_PROPAGATION', 'SNAPSHOT_RESTORE', 'DEDUP', 'SELECTION'],
  propagate_labels: ['DATASET_CREATION', 'MEDIA_ADDITION', 'REINDEX', 'ENRICHMENT', 'LABEL_PROPAGATION', 'SNAPSHOT_RESTORE'],
  // The source of an enrichment must not change under it: whatever changes data blocks it.
  enrich_dataset: ['DATASET_CREATION', 'MEDIA_ADDITION', 'REINDEX', 'ENRICHMENT', 'CUSTOM_METADATA', 'LABEL_PROPAGATION', 'SNAPSHOT_RESTORE', 'DEDUP', 'SELECTION'],
  // A dedup applies to the head at its commit, as a propagation does; one at a time.
  dedup: ['DATASET_CREATION', 'MEDIA_ADDITION', 'REINDEX', 'ENRICHMENT', 'SNAPSHOT_RESTORE', 'DEDUP'],
  // A selection tags the head at its commit (or clones it), like a propagation; one at a time.
  select_media: ['DATASET_CREATION', 'MEDIA_ADDITION', 'REINDEX', 'ENRICHMENT', 'SNAPSHOT_RESTORE', 'SELECTION'],
  // Its tags apply to the head at its commit, like an edit's: only head replacers block it.
  find_leakage: ['DATASET_CREATION', 'MEDIA_ADDITION', 'REINDEX', 'ENRICHMENT', 'SNAPSHOT_RESTORE'],
  // Label errors only add scores at their commit, over the head as it is then: one run at a time, none beside a head replacer.
  find_label_errors: ['DATASET_CREATION', 'MEDIA_ADDITION', 'REINDEX', 'ENRICHMENT', 'SNAPSHOT_RESTORE', 'LABEL_ERRORS'],
};

describe('checkOperation over every (operation, status, running task) pair', () => {
  for (const operation of DATASET_OPERATIONS) {
    it(`${operation}: every status with nothing running`, () => {
      for (const status of DATASET_STATUSES) {
        const expected = STARTS_FROM[operation].includes(status) ? { ok: true } : { ok: false, reason: 'status', status };
        expect(checkOperation(operation, status, []), status).toEqual(expected);
      }
    });

    it(`${operation}: every status with each task type running`, () => {
      for (const status of DATASET_STATUSES) {
        for (const running of TASK_TYPES) {
          const expected = BLOCKERS[operation].includes(running)
            ? { ok: false, reason: 'blocked', by: running }
            : STARTS_FROM[operation].includes(status)
              ? { ok: true }
              : { ok: false, reason: 'status', status };
          expect(checkOperation(operation, status, [running]), `${status} + ${running}`).toEqual(expected);
        }
      }
    });
  }

  it('names the first running blocker, before the status it causes', () => {
    expect(checkOperation('add_media', 'READ ONLY', ['SNAPSHOT_CLONE', 'REINDEX'])).toEqual({ ok: false, reason: 'blocked', by: 'REINDEX' });
    expect(checkOperation('reindex', 'READ ONLY', ['SNAPSHOT_RESTORE'])).toEqual({ ok: false, reason: 'blocked', by: 'SNAPSHOT_RESTORE' });
  });
});

describe('requireOperation', () => {
  it('throws the 409 with the spec wording for a running task', () => {
    const err = (() => {
      try {
        requireOperation('add_media', 'READ ONLY', ['MEDIA_ADDITION']);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ status: 409, detail: "Operation 'add_media' is blocked while MEDIA_ADDITION task is running" });
  });

  it('throws a 409 naming the allowed statuses otherwise, and passes when allowed', () => {
    expect(() => requireOperation('create_snapshot', 'PARTIAL INDEX', [])).toThrow("Operation 'create_snapshot' needs the dataset READY; it is PARTIAL INDEX");
    expect(() => requireOperation('restore_snapshot', 'ERROR', [])).not.toThrow();
  });

  it('refuses a second creation with the 409 that names the running task', () => {
    expect(() => requireOperation('process_files', 'INDEXING', ['DATASET_CREATION'])).toThrow('A DATASET_CREATION task is already running on this dataset');
    expect(() => requireOperation('process_files', 'ERROR', [])).not.toThrow();
  });

  it('refuses an edit during a restore with the 409 that names it', () => {
    expect(() => requireOperation('edit_annotations', 'READ ONLY', ['SNAPSHOT_RESTORE'])).toThrow(
      "Operation 'edit_annotations' is blocked while SNAPSHOT_RESTORE task is running",
    );
    expect(() => requireOperation('edit_annotations', 'READY', ['CUSTOM_METADATA', 'LABEL_PROPAGATION'])).not.toThrow();
  });
});
