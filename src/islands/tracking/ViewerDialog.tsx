import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { ICON_PROPS } from '../shared/icon-props.ts';

interface ViewerDialogProps {
  titleId: string;
  title: ReactNode;
  /** Says the title aloud when it changes (the photo viewer's "Photo 2 of 5"). */
  isTitleLive?: boolean;
  /** Width and height from sm up; a phone always gets the whole screen. */
  sizeClassName: string;
  onClose: () => void;
  onKeyDown?: (event: KeyboardEvent<HTMLDialogElement>) => void;
  /** Controls beside Close in the top bar. */
  actions?: ReactNode;
  children: ReactNode;
}

/**
 * The frame of the tracking page's full-screen viewers (photos, the stencil proof): a modal
 * <dialog> opened on mount (the page behind is inert), focus on Close, Tab kept inside, Escape
 * closes, and focus back on what opened it when it goes.
 */
export function ViewerDialog({ titleId, title, isTitleLive = false, sizeClassName, onClose, onKeyDown, actions, children }: ViewerDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const element = dialog.current;
    const opener = document.activeElement;
    if (element && !element.open) element.showModal();
    element?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => {
      element?.close();
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, []);

  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      className={`m-auto h-dvh max-h-dvh w-screen max-w-none bg-ink p-0 text-paper backdrop:bg-ink/80 sm:rounded-2xl ${sizeClassName}`}
      // Tab cycles inside (client/frame.ts, for every dialog marked data-keep-tab).
      data-keep-tab
      onKeyDown={onKeyDown}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <div className="flex h-full flex-col">
        <div className="flex items-center justify-between gap-2 px-4 py-2 sm:px-6 sm:py-3">
          <h2 id={titleId} className="min-w-0 truncate text-base font-semibold" aria-live={isTitleLive ? 'polite' : undefined}>
            {title}
          </h2>
          <div className="flex shrink-0 items-center gap-1">
            {actions}
            <button type="button" className="inline-flex size-11 items-center justify-center rounded-full hover:bg-white/10" onClick={onClose} data-autofocus>
              <svg {...ICON_PROPS}>
                <path d="M6 6l12 12M18 6L6 18" />
              </svg>
              <span className="sr-only">Close</span>
            </button>
          </div>
        </div>
        {children}
      </div>
    </dialog>
  );
}
