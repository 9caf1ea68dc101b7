import { useState } from 'react';
import { ErrorMessage } from '../ui/error-message';
import type { Anchor } from './explore-query';
import { uploadAnchor } from './use-explore';

interface Props {
  datasetId: string;
  anchor: Anchor | null;
  onAnchor: (anchor: Anchor | null) => void;
}

/** "Find similar" to an uploaded image, and the anchor the grid is ranked by, with a way back. */
export function SimilaritySearch({ datasetId, anchor, onAnchor }: Props) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function upload(file: File | undefined) {
    if (!file) return;
    setBusy(true);
    setError(null);
    try {
      onAnchor(await uploadAnchor(datasetId, file));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="stack similarity">
      <div className="row">
        <label className="inline file-pick">
          Find similar to an image
          <input type="file" accept="image/*" disabled={busy} onChange={(event) => {
              void upload(event.target.files?.[0]);
              // The same file may be picked again after the anchor is cleared.
              event.target.value = '';
            }}
          />
        </label>
        {busy && <span role="status">Reading the image…</span>}
      </div>
      {anchor && (
        <p className="row anchor" role="status">
          <span>
            Similar to <strong>{anchor.name}</strong>
            {anchor.type === 'UPLOAD' ? ' (uploaded)' : ''}, closest first
          </span>
          <button type="button" onClick={() => onAnchor(null)}>
            Clear similarity
          </button>
        </p>
      )}
      {error !== null && <ErrorMessage error={error} />}
    </div>
  );
}
