import { type ReactNode, useEffect, useId, useRef } from 'react';

/**
 * A modal dialog (showModal: focus stays inside, Escape closes it) that asks before an action; `open` shows it.
 */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) dialog.showModal();
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  const titleId = useId();
  return (
    <dialog ref={ref} aria-labelledby={titleId} onClose={props.onClose}>
      <form
        method="dialog"
        onSubmit={(event) => {
          event.preventDefault();
          props.onConfirm();
        }}
      >
        <h2 id={titleId}>{props.title}</h2>
        {props.children}
        <div className="row">
          <button type="submit" className={props.danger ? 'danger' : 'primary'} disabled={props.busy}>
            {props.confirmLabel}
          </button>
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
