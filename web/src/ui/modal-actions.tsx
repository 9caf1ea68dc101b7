import type { ReactNode } from 'react';

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
