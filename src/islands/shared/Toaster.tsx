import { useStore } from '@nanostores/react';
import { $toast, dismissToast } from './toast-store.ts';

/**
 * Renders the current toast. Mount it once per page, inside the island that shows toasts.
 * The live region is always present so screen readers announce each new toast.
 */
export function Toaster() {
  const toast = useStore($toast);
  const destructive = toast?.variant === 'destructive';
  return (
    <div
      className="pointer-events-none fixed inset-x-0 bottom-0 z-50 flex justify-center p-4 sm:justify-end sm:p-6"
      aria-live={destructive ? 'assertive' : 'polite'}
      role={destructive ? 'alert' : 'status'}
    >
      {toast && (
        <div
          key={toast.id}
          data-testid="toast"
          className={[
            'pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-2xl border p-4 shadow-[var(--shadow-card)]',
            destructive ? 'border-danger-600 bg-danger-50 text-danger-600' : 'border-concrete-200 bg-white text-ink',
          ].join(' ')}
        >
          <div className="flex-1">
            <p className="font-semibold">{toast.title}</p>
            {toast.description && <p className={destructive ? 'mt-0.5 text-sm' : 'mt-0.5 text-sm text-concrete-700'}>{toast.description}</p>}
          </div>
          <button
            type="button"
            onClick={dismissToast}
            className="-m-1 inline-flex size-9 shrink-0 items-center justify-center rounded-full hover:bg-concrete-100"
          >
            <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
              <path d="M6 6l12 12M18 6L6 18" />
            </svg>
            <span className="sr-only">Dismiss notification</span>
          </button>
        </div>
      )}
    </div>
  );
}
