import { type FormEvent, useState } from 'react';
import { ErrorMessage } from '../ui/error-message';
import type { ViewQuery } from './explore-query';
import { Modal } from '../ui/modal';
import { ModalActions } from '../ui/modal-actions';
import { useSaveView } from './use-explore';

interface Props {
  datasetId: string;
  query: ViewQuery;
  onDone: (message: string) => void;
  onClose: () => void;
}

/** Saves the current query (filters, granularity, anchor, order) as a view, watched on new media or not. */
export function SaveViewDialog({ datasetId, query, onDone, onClose }: Props) {
  const [name, setName] = useState('');
  const [monitoring, setMonitoring] = useState(true);
  const [alerting, setAlerting] = useState(true);
  const save = useSaveView(datasetId);

  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate(
      { query, name: name.trim(), monitoring, alerting: monitoring && alerting },
      { onSuccess: (view) => onDone(`View “${view.name}” saved: it matches ${view.total_results ?? 'no'} media now.`) },
    );
  }

  return (
    <Modal title="Save as a view" onClose={onClose}>
      <form onSubmit={submit}>
        <label>
          Name
          <input value={name} onChange={(event) => setName(event.target.value)} required maxLength={200} autoFocus />
        </label>
        <label className="inline">
          <input type="checkbox" role="switch" checked={monitoring} onChange={(event) => setMonitoring(event.target.checked)} />
          Monitoring: check every new batch of media against this view
        </label>
        <label className="inline">
          <input type="checkbox" role="switch" checked={alerting && monitoring} disabled={!monitoring} onChange={(event) => setAlerting(event.target.checked)} />
          Alerting: notify me when a batch brings new matches
        </label>
        {save.error && <ErrorMessage error={save.error} />}
        <ModalActions submit="Save view" pending={save.isPending} close="Cancel" onClose={onClose} />
      </form>
    </Modal>
  );
}
