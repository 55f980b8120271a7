import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

interface ModalProps {
  open: boolean;
  title: string;
  description?: ReactNode;
  onClose: () => void;
  children: ReactNode;
  /** Room for reading (a message as sent) rather than a short form. */
  wide?: boolean;
}

/**
 * An edit dialog on the native modal <dialog>, like the site's drawer: showModal() makes the page
 * behind it inert and Escape closes it. Labelled by its title; focus goes back to the button
 * that opened it. Its content mounts only while open, so every opening starts fresh.
 */
export function Modal({ open, title, description, onClose, children, wide = false }: ModalProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const openerRef = useRef<HTMLElement | null>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      openerRef.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  // showModal() makes the page inert, but Tab can still leave for the browser's own UI; wrap it
  // so keyboard focus cycles inside the dialog, as the site's drawer does.
  const keepFocusInside = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== 'Tab') return;
    const focusable = [
      ...event.currentTarget.querySelectorAll<HTMLElement>('button:not([disabled]), textarea, input, select, a[href]'),
    ];
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <dialog
      onKeyDown={keepFocusInside}
      ref={dialogRef}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onClose={() => {
        onClose();
        openerRef.current?.focus();
      }}
      className={`m-auto ${wide ? 'w-[min(48rem,calc(100vw-1.5rem))]' : 'w-[min(34rem,calc(100vw-1.5rem))]'} rounded-2xl bg-white p-0 text-ink shadow-xl backdrop:bg-[rgb(18_22_20/0.55)]`}
    >
      {open && (
        <div className="p-5 sm:p-6">
          <h2 id={titleId} className="text-xl">
            {title}
          </h2>
          {description && (
            <p id={descriptionId} className="mt-1 text-sm text-concrete-600">
              {description}
            </p>
          )}
          <div className="mt-4">{children}</div>
        </div>
      )}
    </dialog>
  );
}
