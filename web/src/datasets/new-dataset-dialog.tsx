import { useEffect, useId, useState } from 'react';
import { ErrorMessage } from '../ui/error-message';
import { MediaPicker } from './media-picker';
import { Modal } from '../ui/modal';
import { UploadProgress } from './upload-progress';
import { useDatasetUpload } from './use-dataset-upload';
import { formatMegabytes, selectMedia, totalBytes } from './upload-plan';

interface Chosen {
  media: File[];
  skipped: number;
}

const keyOf = (f: File) => `${f.webkitRelativePath || f.name}|${f.size}|${f.lastModified}`;

/** Creates a dataset from files, a folder or a drop: name it, choose the media, follow the upload, then processing. */
export function NewDatasetDialog({ onClose, onStarted }: { onClose: () => void; onStarted: (datasetId: string) => void }) {
  const nameId = useId();
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<Chosen>({ media: [], skipped: 0 });
  const upload = useDatasetUpload();
  const { state } = upload;
  const busy = state.phase === 'uploading' || state.phase === 'processing';
  useEffect(() => {
    if (!busy) return;
    // Leaving the page mid-upload would drop the files not sent yet: the browser asks first.
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [busy]);

  function addFiles(files: File[]) {
    const { media, skipped } = selectMedia(files);
    setChosen((before) => {
      const known = new Set(before.media.map(keyOf));
      return { media: [...before.media, ...media.filter((f) => !known.has(keyOf(f)))], skipped: before.skipped + skipped };
    });
  }

  async function submit() {
    const datasetId = await upload.start(name, chosen.media);
    if (datasetId) onStarted(datasetId);
  }

  function close() {
    void upload.discard();
    onClose();
  }

  const counts = state.phase === 'idle' ? null : state.counts;
  return (
    <Modal title="New dataset" onClose={close} busy={busy}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <label htmlFor={nameId}>Dataset name</label>
        <input id={nameId} value={name} onChange={(e) => setName(e.target.value)} required disabled={busy || upload.datasetCreated()} autoComplete="off" />
        <MediaPicker onFiles={addFiles} disabled={busy} />
        <div className="row">
          <span>
            {chosen.media.length === 0
              ? 'No images or videos chosen yet.'
              : `${chosen.media.length} ${chosen.media.length === 1 ? 'file' : 'files'} chosen (${formatMegabytes(totalBytes(chosen.media))})`}
          </span>
          {chosen.media.length > 0 && !busy && (
            <button type="button" onClick={() => setChosen({ media: [], skipped: 0 })}>
              Clear files
            </button>
          )}
        </div>
        {chosen.skipped > 0 && (
          <p className="muted" style={{ margin: 0 }}>
            Skipped {chosen.skipped} {chosen.skipped === 1 ? 'file that is' : 'files that are'} not an image or a video.
          </p>
        )}
        {counts && <UploadProgress counts={counts} />}
        {state.phase === 'processing' && <p style={{ margin: 0 }}>Upload complete; starting to process the files…</p>}
        {state.phase === 'cancelled' && <p style={{ margin: 0 }}>Upload cancelled. Upload again to go on where it stopped.</p>}
        {state.phase === 'failed' && <ErrorMessage error={state.error} />}
        <div className="row">
          {/* Distinct keys: reusing one <button> would turn Cancel into a submit button under the very click that cancels. */}
          {busy ? (
            <button key="cancel" type="button" className="danger" onClick={upload.cancel} disabled={state.phase === 'processing'}>
              Cancel upload
            </button>
          ) : (
            <button key="submit" type="submit" className="primary" disabled={chosen.media.length === 0}>
              {state.phase === 'idle' ? 'Create and upload' : 'Retry upload'}
            </button>
          )}
          <button type="button" onClick={close} disabled={busy}>
            Close
          </button>
        </div>
        {upload.datasetCreated() && !busy && (
          <p className="muted" style={{ margin: 0 }}>
            Closing now removes the dataset being created.
          </p>
        )}
      </form>
    </Modal>
  );
}
