import { useState } from 'react';
import { type EditKind, EditDialog } from './edit-dialog';
import { ExportDialog } from './export-dialog';
import type { EntityType, ViewQuery } from './explore-query';
import { SaveViewDialog } from './save-view-dialog';
import { type Selection, describeSelection, editTargets, exportItems, isEmpty, selectedCount } from './selection';

interface Props {
  datasetId: string;
  selection: Selection;
  entity: EntityType;
  viewQuery: ViewQuery;
  onClear: () => void;
}

type Open = EditKind | 'export' | 'view' | null;

/** What is selected, and what can be done with it: tags, label, export; and saving the query as a view. */
export function SelectionBar({ datasetId, selection, entity, viewQuery, onClear }: Props) {
  const [open, setOpen] = useState<Open>(null);
  const [message, setMessage] = useState('');
  const none = isEmpty(selection);
  const count = selectedCount(selection);
  const done = (text: string) => {
    setMessage(text);
    setOpen(null);
  };
  const edit = (kind: EditKind, text: string) => (
    <button type="button" disabled={none} onClick={() => setOpen(kind)}>
      {text}
    </button>
  );

  return (
    <section className="row selection-bar" aria-label="Selection">
      <strong>{describeSelection(selection)}</strong>
      {edit('add-tag', 'Add tag')}
      {edit('remove-tag', 'Remove tag')}
      {edit('label', 'Set label')}
      <button type="button" disabled={none} onClick={() => setOpen('export')}>
        Export selection
      </button>
      <button type="button" disabled={none} onClick={onClear}>
        Clear selection
      </button>
      <span className="spacer" />
      <button type="button" onClick={() => setOpen('view')}>
        Save view
      </button>
      <p role="status" className="muted selection-message">
        {message}
      </p>
      {(open === 'add-tag' || open === 'remove-tag' || open === 'label') && (
        <EditDialog datasetId={datasetId} kind={open} targets={editTargets(selection)} count={count} onDone={done} onClose={() => setOpen(null)} />
      )}
      {open === 'export' && <ExportDialog datasetId={datasetId} items={exportItems(selection, entity)} count={count} onClose={() => setOpen(null)} />}
      {open === 'view' && <SaveViewDialog datasetId={datasetId} query={viewQuery} onDone={done} onClose={() => setOpen(null)} />}
    </section>
  );
}
