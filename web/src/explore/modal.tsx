import { type ReactNode, useEffect, useRef } from 'react';

interface Props {
  title: string;
  onClose: () => void;
  children: ReactNode;
}

/** A modal <dialog> (showModal traps focus, Escape closes it), open while it is rendered. */
export function Modal({ title, onClose, children }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      aria-labelledby="modal-title"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id="modal-title">{title}</h2>
      {children}
    </dialog>
  );
}

interface ActionsProps {
  /** The submit button's text; none once there is nothing left to submit. */
  submit: string | null;
  pending: boolean;
  close: 'Cancel' | 'Close';
  onClose: () => void;
  children?: ReactNode;
}

/** A modal form's buttons: submit (busy while pending), any others, and a way out. */
export function ModalActions({ submit, pending, close, onClose, children }: ActionsProps) {
  return (
    <div className="row">
      {submit && (
        <button type="submit" className="primary" disabled={pending}>
          {submit}
        </button>
      )}
      {children}
      <button type="button" onClick={onClose}>
        {close}
      </button>
    </div>
  );
}
