import { type FormEvent, useState } from 'react';
import { ErrorMessage } from '../ui/error-message';
import { Modal } from '../ui/modal';
import { ModalActions } from '../ui/modal-actions';
import type { Edit, EditTarget } from '../annotations/send-edit';
import { useEditSelection, useLabels, useTags } from './use-explore';

export type EditKind = Edit['kind'];

interface Props {
  datasetId: string;
  kind: EditKind;
  targets: EditTarget[];
  count: number;
  onDone: (message: string) => void;
  onClose: () => void;
}

const WORDS: Record<EditKind, { title: string; field: string; submit: string }> = {
  'add-tag': { title: 'Add a tag', field: 'Tag', submit: 'Add tag' },
  'remove-tag': { title: 'Remove a tag', field: 'Tag', submit: 'Remove tag' },
  label: { title: 'Set the label', field: 'Label', submit: 'Set label' },
};

/** Adds or removes a tag, or sets (or removes) the label, of the selected media. */
export function EditDialog({ datasetId, kind, targets, count, onDone, onClose }: Props) {
  const [value, setValue] = useState('');
  const edit = useEditSelection(datasetId);
  const tags = useTags(datasetId);
  const labels = useLabels(datasetId);
  const words = WORDS[kind];
  const known = kind === 'label' ? (labels.data?.labels ?? []).map((l) => l.label) : (tags.data?.tags ?? []).map((t) => t.tag);

  function run(change: Edit) {
    edit.mutate(
      { edit: change, targets },
      {
        onSuccess: (changed) => {
          const what = change.kind === 'label' ? (change.label === null ? 'Label removed from' : `Label “${change.label}” set on`) : `Tag “${change.tag}” ${change.kind === 'add-tag' ? 'added to' : 'removed from'}`;
          onDone(`${what} ${changed} media.`);
        },
      },
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const text = value.trim();
    if (!text) return;
    run(kind === 'label' ? { kind, label: text } : { kind, tag: text });
  }

  return (
    <Modal title={words.title} onClose={onClose}>
      <form onSubmit={submit}>
        <p className="muted">For {count} selected media.</p>
        <label>
          {words.field}
          <input value={value} onChange={(event) => setValue(event.target.value)} list={`${kind}-known`} required autoFocus />
          <datalist id={`${kind}-known`}>
            {known.slice(0, 100).map((k) => (
              <option key={k} value={k} />
            ))}
          </datalist>
        </label>
        {edit.error && <ErrorMessage error={edit.error} />}
        <ModalActions submit={words.submit} pending={edit.isPending} close="Cancel" onClose={onClose}>
          {kind === 'label' && (
            <button type="button" disabled={edit.isPending} onClick={() => run({ kind: 'label', label: null })}>
              Remove the label
            </button>
          )}
        </ModalActions>
      </form>
    </Modal>
  );
}
