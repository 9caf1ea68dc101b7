import { type ReactNode, useEffect, useId, useRef } from 'react';

/**
 * A modal <dialog> opened with showModal(), so focus stays inside it and Escape closes it; `onClose` hears every way
 * it closes. Render it only while it is open; a control marked data-autofocus gets the focus first, and the control that
 * opened it gets it back.
 */
export function Modal({ title, onClose, busy = false, children }: { title: string; onClose: () => void; busy?: boolean; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
      // showModal focuses the first control; a dialog may name a safer one (Keep it, not Delete).
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
    // Removed rather than closed, the dialog would leave the focus nowhere: give it back to the button that opened it.
    return () => {
      if (opener.current?.isConnected) opener.current.focus();
    };
  }, []);
  return (
    <dialog ref={ref} aria-labelledby={titleId} onClose={onClose} onCancel={(event) => busy && event.preventDefault()}>
      <h2 id={titleId} style={{ marginTop: 0 }}>
        {title}
      </h2>
      {children}
    </dialog>
  );
}
