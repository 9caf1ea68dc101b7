import { useState } from 'react';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { type Task, canAbort, canRetry } from './task-query';
import { useTaskAction } from './use-tasks';

/** Abort (a running dataset creation, after a confirmation) and Retry (a failed or aborted one) for one row. */
export function TaskActions({ task, onOutcome }: { task: Task; onOutcome: (error: unknown) => void }) {
  const abort = useTaskAction('abort', onOutcome);
  const retry = useTaskAction('retry', onOutcome);
  const [confirming, setConfirming] = useState(false);
  return (
    <div className="row">
      {canAbort(task) && (
        <button type="button" className="danger" aria-label={`Abort the creation of ${task.dataset_name}`} disabled={abort.isPending} onClick={() => setConfirming(true)}>
          Abort
        </button>
      )}
      {canRetry(task) && (
        <button type="button" aria-label={`Retry the creation of ${task.dataset_name}`} disabled={retry.isPending} onClick={() => retry.mutate(task.task_id)}>
          Retry
        </button>
      )}
      {confirming && (
        <ConfirmDialog
          title={`Abort the creation of ${task.dataset_name}?`}
          confirmLabel="Abort task"
          danger
          onClose={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            abort.mutate(task.task_id);
          }}
        >
          <p>The task stops at its next checkpoint; you can retry it later with the same configuration.</p>
        </ConfirmDialog>
      )}
    </div>
  );
}
