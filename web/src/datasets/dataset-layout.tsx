import { useEffect } from 'react';
import { Link, NavLink, Outlet, useParams } from 'react-router';
import { ErrorMessage } from '../ui/error-message';
import { StatusBadge } from './status-badge';
import { useDataset } from './use-dataset';

/** The dataset's tabs: each is a page of its own under /datasets/:datasetId. */
const TABS = [
  { to: '', label: 'Explore', end: true },
  { to: 'curation', label: 'Curation', end: false },
  { to: 'map', label: 'Map', end: false },
  { to: 'enrich', label: 'Enrichment', end: false },
  { to: 'snapshots', label: 'Snapshots', end: false },
  { to: 'exports', label: 'Exports', end: false },
];

/** The frame of every page of one dataset: its name, status, progress while busy, and the tabs. */
export function DatasetLayout() {
  const { datasetId = '' } = useParams();
  const dataset = useDataset(datasetId);
  useEffect(() => {
    if (dataset.data) document.title = `${dataset.data.display_name} · Loupe`;
  }, [dataset.data]);

  if (dataset.error) return <main className="page"><ErrorMessage error={dataset.error} /><Link to="/datasets">Back to the datasets</Link></main>;
  const d = dataset.data;
  return (
    <main className="page">
      <p className="muted breadcrumb">
        <Link to="/datasets">Datasets</Link> /
      </p>
      <div className="row">
        <h1 style={{ margin: 0 }}>{d?.display_name ?? 'Dataset'}</h1>
        {d && <StatusBadge status={d.status_new} />}
        {d && (d.status_new === 'INDEXING' || d.status_new === 'READ ONLY') && (
          <progress max={100} value={d.progress} aria-label={`${d.display_name} progress`}>
            {d.progress}%
          </progress>
        )}
        {d && (
          <span className="muted">
            {d.n_images} images · {d.n_videos} videos · {d.n_objects} objects
          </span>
        )}
      </div>
      {d?.fatal_error_msg && <p role="alert" className="error">{d.fatal_error_msg}</p>}
      <nav className="tabs" aria-label="Dataset">
        {TABS.map((tab) => (
          <NavLink key={tab.label} to={`/datasets/${datasetId}${tab.to ? `/${tab.to}` : ''}`} end={tab.end}>
            {tab.label}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </main>
  );
}
