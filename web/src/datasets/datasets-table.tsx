import { Link } from 'react-router';
import { DatasetRowActions } from './dataset-row-actions';
import { StatusBadge } from './status-badge';
import { BUSY_STATUSES } from './use-dataset';
import type { Dataset } from './use-datasets';

const CREATED = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function DatasetsTable({ datasets }: { datasets: Dataset[] }) {
  return (
    <div className="table-wrap">
      <table className="datasets-table">
        <caption className="visually-hidden">Your datasets, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Status</th>
            <th scope="col" className="number">Images</th>
            <th scope="col" className="number">Videos</th>
            <th scope="col" className="number">Objects</th>
            <th scope="col">Created</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {datasets.map((d) => (
            <tr key={d.id}>
              <td>
                <Link to={`/datasets/${d.id}`}>{d.display_name}</Link>
              </td>
              <td>
                <div className="row" style={{ flexWrap: 'nowrap' }}>
                  <StatusBadge status={d.status_new} />
                  {BUSY_STATUSES.has(d.status_new) && (
                    <progress max={100} value={d.progress} aria-label={`${d.display_name} progress`}>
                      {d.progress}%
                    </progress>
                  )}
                </div>
                {d.fatal_error_msg && <div className="error-text">{d.fatal_error_msg}</div>}
              </td>
              <td className="number">{d.n_images}</td>
              <td className="number">{d.n_videos}</td>
              <td className="number">{d.n_objects}</td>
              <td>
                <time dateTime={d.created_at}>{CREATED.format(new Date(d.created_at))}</time>
              </td>
              <td>
                <DatasetRowActions dataset={d} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
