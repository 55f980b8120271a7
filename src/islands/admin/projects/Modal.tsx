import { useEffect, useId, useRef, type ReactNode } from 'react';

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

  return (
    // data-keep-tab: keyboard focus cycles inside, as in the site's drawer (client/frame.ts).
    <dialog
      data-keep-tab
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
