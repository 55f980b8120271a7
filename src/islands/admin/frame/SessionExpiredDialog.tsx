import { useEffect, useRef } from 'react';
import { SignInGate } from './SignInGate.tsx';

/**
 * 'Session expired' (docs/STAFF-GUIDE.md "Sessions"), asked over the dashboard instead of replacing it: the
 * open dialog, the note being typed and the scroll position stay, and the change that met the
 * ended session is sent once the person is back. A modal dialog that Escape does not dismiss: the
 * choices are signing in again or logging out.
 */
export function SessionExpiredDialog({ email, onSignedIn, onLogout }: { email: string; onSignedIn: () => void; onLogout: () => void }) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={dialogRef}
      data-keep-tab
      aria-labelledby="session-expired-title"
      onCancel={(event) => event.preventDefault()}
      className="m-auto w-[min(28rem,calc(100vw-1.5rem))] rounded-2xl bg-white p-5 text-ink shadow-xl backdrop:bg-[rgb(18_22_20/0.55)] sm:p-6"
      data-testid="session-expired"
    >
      <SignInGate
        headingId="session-expired-title"
        title="Session expired"
        intro="Sign in again to carry on. What you were doing is kept and saved once you are back."
        initialEmail={email}
        onOpen={onSignedIn}
      />
      <button type="button" className="mt-3 min-h-11 w-full rounded-xl text-sm font-semibold text-concrete-700 underline" onClick={onLogout}>
        Log out instead
      </button>
    </dialog>
  );
}
