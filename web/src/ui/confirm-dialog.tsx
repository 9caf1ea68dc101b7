import type { ReactNode } from 'react';
import { Modal } from './modal';

/** Asks before an action, in a Modal; render it only while asking. Cancel (or Escape) closes it without acting. */
export function ConfirmDialog(props: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Modal title={props.title} onClose={props.onClose} busy={props.busy}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          props.onConfirm();
        }}
      >
        {props.children}
        <div className="row">
          <button type="submit" className={props.danger ? 'danger' : 'primary'} disabled={props.busy}>
            {props.confirmLabel}
          </button>
          <button type="button" onClick={props.onClose} data-autofocus={props.danger ? true : undefined}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
