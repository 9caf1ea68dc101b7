import { useEffect, useRef } from 'react';

/** A modal question (focus stays inside while open); Escape or Cancel closes it without acting. */
export function ConfirmDialog(props: { title: string; message: string; confirmLabel: string; onConfirm: () => void; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  // Opened as a modal so focus stays inside; taken out of the page (not closed) on unmount, as close() would call onClose.
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  return (
    <dialog ref={ref} aria-labelledby="confirm-title" onClose={props.onClose}>
      <form method="dialog" onSubmit={(event) => { event.preventDefault(); props.onConfirm(); }}>
        <h2 id="confirm-title" style={{ margin: 0 }}>{props.title}</h2>
        <p style={{ margin: 0 }}>{props.message}</p>
        <div className="row">
          <button type="submit" className="danger">{props.confirmLabel}</button>
          <button type="button" onClick={props.onClose} autoFocus>Cancel</button>
        </div>
      </form>
    </dialog>
  );
}
