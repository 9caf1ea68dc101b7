import { useId, useState } from 'react';
import { ErrorMessage } from '../ui/error-message';
import { Modal } from '../ui/modal';
import { type Dataset, useRenameDataset } from './use-datasets';

export function RenameDatasetDialog({ dataset, onClose }: { dataset: Dataset; onClose: () => void }) {
  const id = useId();
  const [name, setName] = useState(dataset.display_name);
  const rename = useRenameDataset(dataset.id);
  return (
    <Modal title={`Rename ${dataset.display_name}`} onClose={onClose} busy={rename.isPending}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          rename.mutate(name, { onSuccess: onClose });
        }}
      >
        <label htmlFor={id}>New name</label>
        <input id={id} value={name} onChange={(e) => setName(e.target.value)} required autoComplete="off" />
        {rename.error && <ErrorMessage error={rename.error} />}
        <div className="row">
          <button type="submit" className="primary" disabled={rename.isPending}>
            Save name
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
