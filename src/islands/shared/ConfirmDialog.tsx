import { useEffect, useRef } from 'react';

/**
 * A yes/no question in a native modal <dialog>: the browser makes the rest of the page inert
 * (focus stays inside) and Escape cancels; focus goes back to what opened it.
 */
export function ConfirmDialog({
  open,
  title,
  text,
  confirmLabel,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  text: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      opener.current = document.activeElement;
      element.showModal();
    } else if (!open && element.open) {
      element.close();
    }
  }, [open]);

  const restoreFocus = () => {
    if (opener.current instanceof HTMLElement && opener.current.isConnected) opener.current.focus();
  };

  return (
    <dialog
      ref={dialog}
      aria-labelledby="confirm-dialog-title"
      aria-describedby="confirm-dialog-text"
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
      onClose={restoreFocus}
      className="m-auto w-[calc(100%-2rem)] max-w-md rounded-2xl bg-white p-6 text-ink shadow-xl backdrop:bg-ink/40"
    >
      <h2 id="confirm-dialog-title" className="text-xl">
        {title}
      </h2>
      <p id="confirm-dialog-text" className="mt-2 text-concrete-700">
        {text}
      </p>
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <button type="button" className="btn-secondary" onClick={onCancel} autoFocus>
          Cancel
        </button>
        <button type="button" className="btn-primary" onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
