import { useState } from 'react';
import { DeleteDatasetDialog } from './delete-dataset-dialog';
import { RenameDatasetDialog } from './rename-dataset-dialog';
import { ShareDatasetDialog } from './share-dataset-dialog';
import type { Dataset } from './use-datasets';

type Action = 'rename' | 'share' | 'delete';

/** Rename, Share and Delete for one row; each button's name says which dataset it acts on. */
export function DatasetRowActions({ dataset }: { dataset: Dataset }) {
  const [open, setOpen] = useState<Action | null>(null);
  const close = () => setOpen(null);
  const name = dataset.display_name;
  return (
    <div className="row row-actions">
      <button type="button" onClick={() => setOpen('rename')} aria-label={`Rename ${name}`}>
        Rename
      </button>
      <button type="button" onClick={() => setOpen('share')} aria-label={`Share ${name}`}>
        Share
      </button>
      <button type="button" className="danger" onClick={() => setOpen('delete')} aria-label={`Delete ${name}`}>
        Delete
      </button>
      {open === 'rename' && <RenameDatasetDialog dataset={dataset} onClose={close} />}
      {open === 'share' && <ShareDatasetDialog dataset={dataset} onClose={close} />}
      {open === 'delete' && <DeleteDatasetDialog dataset={dataset} onClose={close} />}
    </div>
  );
}
