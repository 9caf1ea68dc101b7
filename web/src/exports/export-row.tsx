import { StatusBadge } from '../datasets/status-badge';
import { ErrorMessage } from '../ui/error-message';
import type { ExportRecord } from './export-log';
import { useExportStatus } from './exports-api';

/** One export of this browser: what was asked, its status followed until it ends, then its download link. */
export function ExportRow({ datasetId, record }: { datasetId: string; record: ExportRecord }) {
  const status = useExportStatus(datasetId, record.id);
  const s = status.data;
  return (
    <tr>
      <th scope="row">{record.fileName}</th>
      <td>{record.format === 'json' ? 'JSON' : 'Parquet'}</td>
      <td>{record.includeImages ? 'yes' : 'no'}</td>
      <td>{new Date(record.startedAt).toLocaleString()}</td>
      <td>
        {status.error ? (
          <ErrorMessage error={status.error} />
        ) : s ? (
          <span className="row">
            <StatusBadge status={s.status} />
            {s.status === 'PENDING' && (
              <progress max={100} value={s.progress} aria-label={`${record.fileName} progress`}>
                {s.progress}%
              </progress>
            )}
            {s.result_message && s.status !== 'COMPLETED' && <span className="error">{s.result_message}</span>}
          </span>
        ) : (
          <span className="muted">…</span>
        )}
      </td>
      <td>
        {s?.status === 'COMPLETED' && s.download_uri && (
          <a href={s.download_uri} download>
            Download {record.fileName}
          </a>
        )}
      </td>
    </tr>
  );
}
