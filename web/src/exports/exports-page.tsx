import { type FormEvent, useState } from 'react';
import { useParams } from 'react-router';
import { useDataset } from '../datasets/use-dataset';
import { ErrorMessage } from '../ui/error-message';
import { type ExportFormat, type ExportRecord, addToExportLog, readExportLog, suggestedFileName } from './export-log';
import { ExportRow } from './export-row';
import { useStartExport } from './exports-api';

/** The Exports tab: start a full export of the dataset, follow it, download it; lists this browser's exports. */
export function ExportsPage() {
  const { datasetId = '' } = useParams();
  const dataset = useDataset(datasetId);
  const start = useStartExport(datasetId);
  // The log read for the dataset shown: this page stays mounted when the link goes to another dataset's tab.
  const [log, setLog] = useState<{ datasetId: string; records: ExportRecord[] }>(() => ({ datasetId, records: readExportLog(sessionStorage, datasetId) }));
  const records = log.datasetId === datasetId ? log.records : readExportLog(sessionStorage, datasetId);
  const [fileName, setFileName] = useState<string | null>(null);
  const [format, setFormat] = useState<ExportFormat>('json');
  const [includeImages, setIncludeImages] = useState(false);
  const name = fileName ?? (dataset.data ? suggestedFileName(dataset.data.display_name) : '');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const options = { fileName: name.trim(), format, includeImages };
    start.mutate(options, {
      onSuccess: ({ id }) => setLog({ datasetId, records: addToExportLog(sessionStorage, datasetId, { id, ...options, startedAt: new Date().toISOString() }) }),
    });
  };

  return (
    <section aria-labelledby="exports-title" className="stack">
      <h2 id="exports-title">Exports</h2>
      <form className="card export-form" onSubmit={submit} aria-labelledby="exports-new">
        <h3 id="exports-new" style={{ margin: 0, flexBasis: '100%' }}>
          Export the whole dataset as a ZIP
        </h3>
        <label>
          File name
          <input value={name} onChange={(e) => setFileName(e.target.value)} required maxLength={200} />
        </label>
        <label>
          Format
          <select value={format} onChange={(e) => setFormat(e.target.value as ExportFormat)}>
            <option value="json">JSON</option>
            <option value="parquet">Parquet</option>
          </select>
        </label>
        <label className="inline">
          <input type="checkbox" checked={includeImages} onChange={(e) => setIncludeImages(e.target.checked)} />
          Include images
        </label>
        <button type="submit" className="primary" disabled={start.isPending || !name.trim()}>
          Start export
        </button>
      </form>
      {start.error && <ErrorMessage error={start.error} />}
      {records.length === 0 ? (
        <p className="muted">No exports started from this browser yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="named-rows">
            <caption className="muted">Exports started from this browser, newest first</caption>
            <thead>
              <tr>
                <th scope="col">File name</th>
                <th scope="col">Format</th>
                <th scope="col">Images</th>
                <th scope="col">Started</th>
                <th scope="col">Status</th>
                <th scope="col">Download</th>
              </tr>
            </thead>
            <tbody>
              {records.map((record) => (
                <ExportRow key={record.id} datasetId={datasetId} record={record} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
