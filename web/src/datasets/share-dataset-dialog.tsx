import { useId, useState } from 'react';
import { ErrorMessage } from '../ui/error-message';
import { Modal } from '../ui/modal';
import { type AccessRole, type Dataset, useDatasetAccess, useRevokeAccess, useShareDataset } from './use-datasets';

/** Who has access to a dataset, sharing it with one more user by e-mail, and revoking a user's access. */
export function ShareDatasetDialog({ dataset, onClose }: { dataset: Dataset; onClose: () => void }) {
  const id = useId();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<AccessRole>('viewer');
  const access = useDatasetAccess(dataset.id);
  const share = useShareDataset(dataset.id);
  const revoke = useRevokeAccess(dataset.id);

  return (
    <Modal title={`Share ${dataset.display_name}`} onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          share.mutate({ email: email.trim(), role }, { onSuccess: () => setEmail('') });
        }}
      >
        <div className="row share-fields">
          <div className="stack" style={{ gap: '0.25rem', flex: '1 1 14rem' }}>
            <label htmlFor={`${id}-email`}>User e-mail</label>
            <input id={`${id}-email`} type="email" value={email} onChange={(e) => setEmail(e.target.value)} required autoComplete="off" />
          </div>
          <div className="stack" style={{ gap: '0.25rem' }}>
            <label htmlFor={`${id}-role`}>Role</label>
            <select id={`${id}-role`} value={role} onChange={(e) => setRole(e.target.value as AccessRole)}>
              <option value="viewer">Viewer (can look)</option>
              <option value="editor">Editor (can change)</option>
            </select>
          </div>
        </div>
        {share.error && <ErrorMessage error={share.error} />}
        <div className="row">
          <button type="submit" className="primary" disabled={share.isPending}>
            Share
          </button>
          <button type="button" onClick={onClose}>
            Done
          </button>
        </div>
      </form>
      <h3>Who has access</h3>
      {access.error && <ErrorMessage error={access.error} />}
      {revoke.error && <ErrorMessage error={revoke.error} />}
      {access.isPending && <p className="muted">Loading…</p>}
      {access.data && (
        <ul className="access-list" aria-label={`Who has access to ${dataset.display_name}`}>
          {access.data.users.map((user) => (
            <li key={user.user_id} className="row">
              <span className="access-email">{user.email}</span>
              <span className="muted">{user.role}</span>
              {user.role !== 'owner' && (
                <button type="button" onClick={() => revoke.mutate(user.email)} disabled={revoke.isPending} aria-label={`Revoke access of ${user.email}`}>
                  Revoke
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </Modal>
  );
}
