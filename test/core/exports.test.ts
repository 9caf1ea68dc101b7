import { describe, expect, it } from 'vitest';
import { DATASET_STATUSES } from '../../src/core/dataset-status.js';
import { archiveFileName, canExport, exportStatus } from '../../src/core/exports.js';
import { TASK_TYPES } from '../../src/core/tasks.js';

describe('export rules', () => {
  it('maps the stored state to what clients poll for', () => {
    expect(['PENDING', 'RUNNING', 'COMPLETED', 'FAILED', 'REJECTED'].map((s) => exportStatus(s as never))).toEqual(['PENDING', 'PENDING', 'COMPLETED', 'FAILED', 'REJECTED']);
  });

  it('starts from READY, or READ ONLY only while a restore runs (reads keep serving the old head)', () => {
    for (const status of DATASET_STATUSES) {
      for (const running of [[], ...TASK_TYPES.map((t) => [t])]) {
        const expected = status === 'READY' || (status === 'READ ONLY' && running[0] === 'SNAPSHOT_RESTORE');
        expect(canExport(status, running), `${status} ${running.join()}`).toBe(expected);
      }
    }
  });

  it('names archives safely', () => {
    expect(archiveFileName('my export')).toBe('my export.zip');
    expect(archiveFileName('a/b\\c.ZIP')).toBe('a_b_c.ZIP');
    expect(archiveFileName('  ')).toBe('export.zip');
    expect(archiveFileName('..')).toBe('export.zip');
    expect(archiveFileName('x"\n.zip')).toBe('x_.zip');
  });
});
