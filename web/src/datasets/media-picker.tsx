import { type DragEvent, useId, useState } from 'react';
import { droppedFiles } from './dropped-files';
import { MEDIA_ACCEPT } from './upload-plan';

// Chromium and Safari name the folder picker `webkitdirectory`; React passes the attribute through as written.
const FOLDER_PICKER = { webkitdirectory: '', directory: '' } as Record<string, string>;

/** Three ways to choose what to upload: files, a folder, or a drop of files and folders. */
export function MediaPicker({ onFiles, disabled }: { onFiles: (files: File[]) => void; disabled: boolean }) {
  const id = useId();
  const [over, setOver] = useState(false);
  const [dropError, setDropError] = useState<string | null>(null);

  function fromInput(input: HTMLInputElement) {
    if (input.files && input.files.length > 0) onFiles(Array.from(input.files));
    // Choosing the same files again must fire a change too.
    input.value = '';
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setOver(false);
    if (disabled) return;
    setDropError(null);
    droppedFiles(event.dataTransfer).then(onFiles, (error: unknown) =>
      setDropError(`The dropped files could not be read: ${error instanceof Error ? error.message : String(error)}`),
    );
  }

  return (
    <div
      role="group"
      aria-label="Files to upload"
      className={`drop-zone${over ? ' drop-zone-over' : ''}`}
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <div className="row">
        <input id={`${id}-files`} className="visually-hidden" type="file" multiple accept={MEDIA_ACCEPT} disabled={disabled} onChange={(e) => fromInput(e.currentTarget)} />
        <label htmlFor={`${id}-files`} className="file-button">
          Choose files
        </label>
        <input id={`${id}-folder`} className="visually-hidden" type="file" {...FOLDER_PICKER} disabled={disabled} onChange={(e) => fromInput(e.currentTarget)} />
        <label htmlFor={`${id}-folder`} className="file-button">
          Choose a folder
        </label>
      </div>
      <p className="muted" style={{ margin: 0 }}>
        or drop files and folders here. Images: JPEG, PNG, WebP, GIF, BMP, TIFF, HEIC, AVIF; videos: MP4, MOV, WebM, MKV, AVI.
      </p>
      {dropError && (
        <p role="alert" className="error">
          {dropError}
        </p>
      )}
    </div>
  );
}
