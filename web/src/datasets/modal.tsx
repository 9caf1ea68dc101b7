import { type ReactNode, useEffect, useId, useRef } from 'react';

/**
 * A modal <dialog> opened with showModal(), so focus stays inside it and Escape closes it; `onClose` hears every way
 * it closes. Render it only while it is open.
 */
export function Modal({ title, onClose, busy = false, children }: { title: string; onClose: () => void; busy?: boolean; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
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
