import type { Snapshot } from './snapshots-api';

export type SnapshotAction = 'rename' | 'restore' | 'clone' | 'delete';

/** The dataset's snapshots with their facts and a row of actions each. */
export function SnapshotsTable({ snapshots, busy, onAction }: { snapshots: Snapshot[]; busy: boolean; onAction: (action: SnapshotAction, s: Snapshot) => void }) {
  return (
    <div className="table-wrap">
      <table className="named-rows">
        <caption className="muted">Newest first</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Description</th>
            <th scope="col">Reason</th>
            <th scope="col">Created</th>
            <th scope="col">Created by</th>
            <th scope="col">Images</th>
            <th scope="col">Videos</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {snapshots.map((s) => (
            <tr key={s.snapshot_id}>
              <th scope="row">
                <span className="row">
                  {s.snapshot_name}
                  {s.is_current && <span className="status status-ready">current</span>}
                  {s.is_restoring && <span className="status status-running">restoring</span>}
                </span>
              </th>
              <td>{s.description || <span className="muted">—</span>}</td>
              <td>{s.reason}</td>
              <td>{new Date(s.created_at).toLocaleString()}</td>
              <td>{s.created_by}</td>
              <td>{s.n_images}</td>
              <td>{s.n_videos}</td>
              <td>
                <span className="row">
                  {(['rename', 'restore', 'clone', 'delete'] as const).map((action) => (
                    <button
                      key={action}
                      type="button"
                      className={action === 'delete' ? 'danger' : undefined}
                      aria-label={`${action.charAt(0).toUpperCase()}${action.slice(1)} ${s.snapshot_name}`}
                      disabled={busy && action !== 'rename'}
                      onClick={() => onAction(action, s)}
                    >
                      {action.charAt(0).toUpperCase() + action.slice(1)}
                    </button>
                  ))}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
