import { describe, expect, it } from 'vitest';
import { TASK_TYPES } from '../../src/core/tasks.js';
import { REQUIRED_JOBS, type RegisteredJob, checkRegistry } from '../../src/jobs/registry.js';
import { SWEEP_NAMES } from '../../src/jobs/sweeps.js';

const noop = async () => {};
const job = (name: string): RegisteredJob => {
  if ((TASK_TYPES as readonly string[]).includes(name)) return { kind: 'task', name: name as (typeof TASK_TYPES)[number], handler: noop };
  if ((SWEEP_NAMES as readonly string[]).includes(name)) return { kind: 'sweep', name: name as (typeof SWEEP_NAMES)[number], handler: noop };
  return { kind: 'payload', name, handler: noop };
};
const all = () => REQUIRED_JOBS.map(job);

describe('the job registry checked at boot', () => {
  it('requires every task type, the export, task chunk and head summaries jobs and every sweep, from one declaration', () => {
    expect([...REQUIRED_JOBS].sort()).toEqual([...TASK_TYPES, 'EXPORT', 'task-chunk', 'summarise-head', ...SWEEP_NAMES].sort());
    expect([...checkRegistry(all()).keys()].sort()).toEqual([...REQUIRED_JOBS].sort());
  });

  it('refuses a missing handler, the export job and a sweep included', () => {
    for (const missing of ['REINDEX', 'EXPORT', 'task-chunk', 'summarise-head', 'sweep-blobs']) {
      expect(() => checkRegistry(all().filter((j) => j.name !== missing))).toThrow(`Invalid job registry: job ${missing} has no handler`);
    }
  });

  it('refuses a name with two handlers and a name nobody declared', () => {
    expect(() => checkRegistry([...all(), job('sweep-versions')])).toThrow('Invalid job registry: job sweep-versions has more than one handler');
    expect(() => checkRegistry([...all(), job('THUMBNAILS')])).toThrow('Invalid job registry: unknown job THUMBNAILS');
    expect(() => checkRegistry([...all(), { kind: 'task', name: 'EXPORT' as never, handler: noop }])).toThrow('unknown job EXPORT');
  });
});
