import { useState } from 'react';
import { Link } from 'react-router';
import { EditDialog } from '../explore/edit-dialog';
import { exploreMapSearch } from '../explore/explore-query';
import { SaveViewDialog } from '../explore/save-view-dialog';
import { ErrorMessage } from '../ui/error-message';
import type { SelectionAnswer } from './map-api';
import type { DrawnShape } from './map-canvas';

interface Props {
  datasetId: string;
  shape: DrawnShape;
  answer: SelectionAnswer | undefined;
  pending: boolean;
  error: unknown;
  onClear: () => void;
}

/** What a drawn shape holds, and what to do with it: open it in Explore, tag it, save it as a view. */
export function MapSelectionBar({ datasetId, shape, answer, pending, error, onClear }: Props) {
  const [open, setOpen] = useState<'tag' | 'view' | null>(null);
  const [message, setMessage] = useState('');
  const done = (text: string) => {
    setMessage(text);
    setOpen(null);
  };
  const what = shape.kind === 'rectangle' ? 'rectangle' : 'lasso';
  const none = !answer || answer.count === 0;

  return (
    <section className="row selection-bar" aria-label="Map selection">
      {error ? <ErrorMessage error={error} /> : <strong role="status">{pending || !answer ? `Counting the media in the ${what}…` : `${answer.count.toLocaleString()} media in the ${what}`}</strong>}
      {none ? (
        <span className="muted">Open in Explore</span>
      ) : (
        <Link className="button-link" to={`/datasets/${datasetId}?${exploreMapSearch(shape.polygon)}`}>
          Open in Explore
        </Link>
      )}
      <button type="button" disabled={none} onClick={() => setOpen('tag')}>
        Add tag
      </button>
      <button type="button" disabled={!answer} onClick={() => setOpen('view')}>
        Save view
      </button>
      <button type="button" onClick={onClear}>
        Clear selection
      </button>
      <p className="muted selection-message" role="status">
        {message}
      </p>
      {open === 'tag' && answer && <EditDialog datasetId={datasetId} kind="add-tag" targets={[{ query: { vql: answer.vql } }]} count={answer.count} onDone={done} onClose={() => setOpen(null)} />}
      {open === 'view' && answer && <SaveViewDialog datasetId={datasetId} query={{ threshold: 0, entity_type: 'IMAGES', vql: answer.vql }} onDone={done} onClose={() => setOpen(null)} />}
    </section>
  );
}
