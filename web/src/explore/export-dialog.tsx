import { type FormEvent, useState } from 'react';
import { StatusBadge } from '../datasets/status-badge';
import { ErrorMessage } from '../ui/error-message';
import { Modal } from '../ui/modal';
import { ModalActions } from '../ui/modal-actions';
import type { ExportItem } from './selection';
import { useExportStatus } from '../exports/exports-api';
import { useStartExport } from './use-explore';

interface Props {
  datasetId: string;
  items: ExportItem[];
  count: number;
  onClose: () => void;
}

/** Exports the selection (JSON or Parquet, with the images or not), follows it, and offers the download. */
export function ExportDialog({ datasetId, items, count, onClose }: Props) {
  const [format, setFormat] = useState<'json' | 'parquet'>('json');
  const [includeImages, setIncludeImages] = useState(false);
  const start = useStartExport(datasetId);
  const status = useExportStatus(datasetId, start.data?.id ?? null);
  const s = status.data;

  function submit(event: FormEvent) {
    event.preventDefault();
    start.mutate({ items, format, includeImages });
  }

  return (
    <Modal title="Export the selection" onClose={onClose}>
      <form onSubmit={submit}>
        <p className="muted">{count} selected media.</p>
        <fieldset className="row" disabled={start.isPending || start.isSuccess}>
          <legend>Format</legend>
          <label className="inline">
            <input type="radio" name="export-format" checked={format === 'json'} onChange={() => setFormat('json')} /> JSON
          </label>
          <label className="inline">
            <input type="radio" name="export-format" checked={format === 'parquet'} onChange={() => setFormat('parquet')} /> Parquet
          </label>
          <label className="inline">
            <input type="checkbox" checked={includeImages} onChange={(event) => setIncludeImages(event.target.checked)} /> Include images
          </label>
        </fieldset>
        {start.error && <ErrorMessage error={start.error} />}
        {status.error && <ErrorMessage error={status.error} />}
        {s && (
          <div className="row" role="status">
            <StatusBadge status={s.status} />
            {s.status === 'PENDING' && (
              <progress max={100} value={s.progress} aria-label="Export progress">
                {s.progress}%
              </progress>
            )}
            {s.status === 'COMPLETED' && s.download_uri && <a href={s.download_uri}>Download</a>}
            {s.result_message && s.status !== 'COMPLETED' && <span>{s.result_message}</span>}
          </div>
        )}
        <ModalActions submit={start.isSuccess ? null : 'Start export'} pending={start.isPending} close="Close" onClose={onClose} />
      </form>
    </Modal>
  );
}
