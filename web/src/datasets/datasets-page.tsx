import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ErrorMessage } from '../ui/error-message';
import { DatasetsTable } from './datasets-table';
import { NewDatasetDialog } from './new-dataset-dialog';
import { useDatasetsPage } from './use-datasets';

/** The datasets the user owns or that are shared with them, 100 a page, and the way to create one from local files. */
export function DatasetsPage() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(0, Number.parseInt(params.get('page') ?? '1', 10) - 1 || 0);
  const datasets = useDatasetsPage(page);
  const [creating, setCreating] = useState(false);
  useEffect(() => {
    document.title = 'Datasets · Loupe';
  }, []);

  const goTo = (next: number) => setParams(next === 0 ? {} : { page: String(next + 1) });
  const rows = datasets.data?.datasets ?? [];
  return (
    <main className="page">
      <div className="row" style={{ marginBottom: '1rem' }}>
        <h1 style={{ margin: 0 }}>Datasets</h1>
        <span className="spacer" />
        <button type="button" className="primary" onClick={() => setCreating(true)}>
          New dataset
        </button>
      </div>
      {datasets.error && <ErrorMessage error={datasets.error} />}
      {datasets.isPending && <p className="muted">Loading…</p>}
      {datasets.data && rows.length === 0 && page === 0 && (
        <div className="card empty-state">
          <h2 style={{ marginTop: 0 }}>No datasets yet</h2>
          <p style={{ marginBottom: 0 }}>
            Start with <strong>New dataset</strong>: name it, then choose images and videos from your computer (files or a whole
            folder, or drag them here into the dialog). Datasets that others share with you appear here too.
          </p>
        </div>
      )}
      {datasets.data && rows.length === 0 && page > 0 && <p>No datasets on this page.</p>}
      {rows.length > 0 && <DatasetsTable datasets={rows} />}
      {(page > 0 || datasets.data?.hasMore) && (
        <nav className="row pager" aria-label="Pages of datasets">
          <button type="button" onClick={() => goTo(page - 1)} disabled={page === 0}>
            Previous
          </button>
          <span>Page {page + 1}</span>
          <button type="button" onClick={() => goTo(page + 1)} disabled={!datasets.data?.hasMore}>
            Next
          </button>
        </nav>
      )}
      {creating && (
        <NewDatasetDialog
          onClose={() => setCreating(false)}
          onStarted={() => {
            setCreating(false);
            goTo(0);
          }}
        />
      )}
    </main>
  );
}
