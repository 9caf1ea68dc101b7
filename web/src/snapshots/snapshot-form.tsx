import { type FormEvent, useState } from 'react';

/** Name and description fields of a snapshot, for creating one. */
export function CreateSnapshotForm({ busy, onCreate }: { busy: boolean; onCreate: (body: { name: string; description: string }) => Promise<unknown> }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onCreate({ name: name.trim(), description: description.trim() }).then(() => {
      setName('');
      setDescription('');
    }, () => undefined);
  };
  return (
    <form className="card export-form" onSubmit={submit} aria-labelledby="snapshot-create">
      <h3 id="snapshot-create" style={{ margin: 0, flexBasis: '100%' }}>
        New snapshot
      </h3>
      <label>
        Name
        <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={500} />
      </label>
      <label>
        Description
        <input value={description} onChange={(e) => setDescription(e.target.value)} maxLength={10_000} />
      </label>
      <button type="submit" className="primary" disabled={busy || !name.trim()}>
        Create snapshot
      </button>
    </form>
  );
}
