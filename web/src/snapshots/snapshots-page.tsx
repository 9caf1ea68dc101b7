import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useDataset } from '../datasets/use-dataset';
import { ErrorMessage } from '../ui/error-message';
import { cloneName } from './clone-lookup';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { CreateSnapshotForm } from './snapshot-form';
import { type Snapshot, useSnapshotActions, useSnapshots } from './snapshots-api';
import { type SnapshotAction, SnapshotsTable } from './snapshots-table';

type Pending = { action: Exclude<SnapshotAction, 'clone'>; snapshot: Snapshot } | null;

/** The Snapshots tab: list, create, rename, restore, clone and delete the dataset's snapshots. */
export function SnapshotsPage() {
  const { datasetId = '' } = useParams();
  const dataset = useDataset(datasetId);
  const readOnly = dataset.data?.status_new === 'READ ONLY';
  const snapshots = useSnapshots(datasetId, readOnly);
  const following = readOnly || (snapshots.data?.some((s) => s.is_restoring) ?? false);
  const actions = useSnapshotActions(datasetId);
  const [pending, setPending] = useState<Pending>(null);
  const [fields, setFields] = useState({ name: '', description: '' });
  const [cloned, setCloned] = useState<{ name: string; id: string | null } | null>(null);
  const mutations = [actions.create, actions.rename, actions.restore, actions.remove, actions.clone];
  // Every action clears the errors of the others first, so at most one is shown.
  const failed = mutations.find((m) => m.error);
  const close = () => setPending(null);

  const onAction = (action: SnapshotAction, snapshot: Snapshot) => {
    mutations.forEach((m) => m.reset());
    if (action === 'clone') {
      const name = dataset.data?.display_name ?? '';
      actions.clone.mutate({ id: snapshot.snapshot_id, datasetName: name }, { onSuccess: (found) => setCloned({ name: cloneName(name), id: found?.id ?? null }) });
      return;
    }
    setFields({ name: snapshot.snapshot_name, description: snapshot.description });
    setPending({ action, snapshot });
  };
  const confirm = () => {
    if (!pending) return;
    const id = pending.snapshot.snapshot_id;
    if (pending.action === 'rename') actions.rename.mutate({ id, name: fields.name.trim(), description: fields.description });
    if (pending.action === 'restore') actions.restore.mutate(id);
    if (pending.action === 'delete') actions.remove.mutate(id);
    close();
  };
  const name = pending?.snapshot.snapshot_name ?? '';

  return (
    <section aria-labelledby="snapshots-title" className="stack">
      <h2 id="snapshots-title">Snapshots</h2>
      <CreateSnapshotForm busy={actions.create.isPending || following} onCreate={(body) => {
        mutations.forEach((m) => m.reset());
        return actions.create.mutateAsync(body);
      }} />
      <div role="status">
        {following && <p>A restore is running: the dataset is read-only until it is READY again.</p>}
        {cloned && (
          <p>
            A new dataset “{cloned.name}” is being made from the snapshot.{' '}
            {cloned.id ? <Link to={`/datasets/${cloned.id}`}>Open {cloned.name}</Link> : <Link to="/datasets">See the datasets</Link>}
          </p>
        )}
      </div>
      {failed?.error && <ErrorMessage error={failed.error} />}
      {snapshots.error && <ErrorMessage error={snapshots.error} />}
      {snapshots.data?.length === 0 && <p className="muted">No snapshots yet.</p>}
      {snapshots.data && snapshots.data.length > 0 && <SnapshotsTable snapshots={snapshots.data} busy={following} onAction={onAction} />}

      {pending?.action === 'rename' && (
        <ConfirmDialog title={`Rename ${name}`} confirmLabel="Save" onConfirm={confirm} onClose={close}>
          <label>
            Snapshot name
            <input value={fields.name} onChange={(e) => setFields({ ...fields, name: e.target.value })} required maxLength={500} />
          </label>
          <label>
            Snapshot description
            <input value={fields.description} onChange={(e) => setFields({ ...fields, description: e.target.value })} maxLength={10_000} />
          </label>
        </ConfirmDialog>
      )}
      {pending?.action === 'restore' && (
        <ConfirmDialog title={`Restore ${name}?`} confirmLabel="Restore" danger onConfirm={confirm} onClose={close}>
          <p>
            The restore replaces the dataset’s current data with the data of snapshot “{name}”. It cannot be undone. The dataset is read-only while it
            runs.
          </p>
        </ConfirmDialog>
      )}
      {pending?.action === 'delete' && (
        <ConfirmDialog title={`Delete ${name}?`} confirmLabel="Delete" danger onConfirm={confirm} onClose={close}>
          <p>Snapshot “{name}” leaves the list; clones made from it are kept.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
