import { useEffect, useId, useRef } from 'react';

/**
 * A yes/no question in the browser's own modal <dialog>: it keeps focus inside, Escape closes it,
 * and focus goes back to the button that opened it.
 */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  busy = false,
  onConfirm,
  onClose,
  fallbackFocus,
}: {
  open: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
  /** Where focus goes when the opener is gone (its row was archived). */
  fallbackFocus?: () => HTMLElement | null;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  const titleId = useId();
  const messageId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement;
      dialog.showModal();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const onDialogClose = () => {
      onClose();
      // After React has removed an archived row, so the opener's absence is known.
      requestAnimationFrame(() => {
        if (opener.current instanceof HTMLElement && opener.current.isConnected) opener.current.focus();
        else fallbackFocus?.()?.focus();
      });
    };
    dialog.addEventListener('close', onDialogClose);
    return () => dialog.removeEventListener('close', onDialogClose);
  }, [onClose, fallbackFocus]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={messageId}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-[var(--radius-card)] border border-concrete-100 bg-white p-6 text-ink shadow-[var(--shadow-card)] backdrop:bg-ink/40"
    >
      <h2 id={titleId} className="text-xl">
        {title}
      </h2>
      <p id={messageId} className="mt-2 text-concrete-700">
        {message}
      </p>
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <button type="button" className="btn-secondary" onClick={() => ref.current?.close()} autoFocus>
          Cancel
        </button>
        <button type="button" className="btn-primary" onClick={onConfirm} disabled={busy}>
          {busy ? 'Working…' : confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
