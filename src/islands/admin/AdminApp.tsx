import { useEffect, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import { api } from '../shared/api.ts';
import { withErrorBoundary } from '../shared/ErrorBoundary.tsx';
import { Toaster } from '../shared/Toaster.tsx';
import { AdminTabs } from './AdminTabs.tsx';
import { SignInGate } from './frame/SignInGate.tsx';
import { SessionExpiredDialog } from './frame/SessionExpiredDialog.tsx';
import { NamePrompt } from './frame/NamePrompt.tsx';
import { $staffUser, type SignedInStaff } from './staff-user.ts';
import { ROLE_LABELS } from '../../domain/staff-roles.ts';
import { ADMIN_SIGNED_OUT_EVENT, ADMIN_UNAUTHORISED_EVENT, resumeAfterSignIn } from './admin-api.ts';
import { StatCards } from './frame/StatCards.tsx';
import { QuickActions } from './frame/QuickActions.tsx';
import { $mapTiles, type MapTiles } from './operations/map-tiles.ts';

type Gate = 'checking' | 'locked' | 'open';

/** Who is signed in, or null: `?optional=1` makes "nobody" an answer, not a failed request in the console. */
async function readSession(): Promise<SignedInStaff | null> {
  const answer = await api<{ authenticated: boolean; user?: SignedInStaff }>('/api/admin/session?optional=1');
  return answer.authenticated && answer.user ? answer.user : null;
}

/**
 * /admin: the sign-in gate, then the dashboard. The server decides: the gate asks
 * GET /api/admin/session and POST /api/admin/login; the browser never sees the password's hash.
 * A session that ends while the dashboard is open is signed into again over it, in place, so
 * nothing typed is lost (admin-api.ts holds the calls that met the ended session meanwhile).
 */
function AdminApp({ mapTiles }: { mapTiles?: MapTiles }) {
  const [gate, setGate] = useState<Gate>('checking');
  const [expired, setExpired] = useState(false);
  const user = useStore($staffUser);
  const gateRef = useRef<Gate>('checking');
  gateRef.current = gate;

  const open = (signedIn: SignedInStaff | null) => {
    $staffUser.set(signedIn);
    setGate(signedIn ? 'open' : 'locked');
  };
  const checkSession = () => readSession().then(open, () => open(null));
  // The tile source for tabs that draw maps (Locations); set before any tab renders.
  if (mapTiles && $mapTiles.get() === null) $mapTiles.set(mapTiles);

  useEffect(() => {
    void checkSession();
  }, []);

  useEffect(() => {
    // Any admin call answering 401 (see admin-api.ts): while the dashboard is open, ask for a
    // sign-in over it; otherwise (after a logout) the calls belong to nothing on screen.
    const unauthorised = () => {
      if (gateRef.current === 'open') setExpired(true);
      else resumeAfterSignIn('abandon');
    };
    const signedOut = () => {
      resumeAfterSignIn('abandon');
      setExpired(false);
      open(null);
    };
    window.addEventListener(ADMIN_UNAUTHORISED_EVENT, unauthorised);
    window.addEventListener(ADMIN_SIGNED_OUT_EVENT, signedOut);
    return () => {
      window.removeEventListener(ADMIN_UNAUTHORISED_EVENT, unauthorised);
      window.removeEventListener(ADMIN_SIGNED_OUT_EVENT, signedOut);
    };
  }, []);

  const signedInAgain = async () => {
    const before = $staffUser.get();
    const now = await readSession().catch(() => null);
    setExpired(false);
    // The same person carries on where they were; someone else gets a dashboard of their own.
    resumeAfterSignIn(now && before && now.id === before.id ? 'retry' : 'abandon');
    open(now);
  };

  const logout = async () => {
    resumeAfterSignIn('abandon');
    setExpired(false);
    // Locked first: a tab still loading then finds no dashboard to report a 401 to.
    open(null);
    await api('/api/admin/logout', { method: 'POST' }).catch(() => undefined);
  };

  return (
    <>
      {gate !== 'open' && (
        // As tall as the sign-in card (down to 320 px wide), so the footer does not jump when the
        // card replaces the session check (a layout shift of 0.15 on every visit).
        <div className="flow-root min-h-[42rem]">
          {gate === 'checking' && (
            <p className="py-16 text-center text-concrete-600" role="status">
              Checking your session…
            </p>
          )}
          {gate === 'locked' && (
            <div className="card mx-auto mt-6 max-w-md p-6 sm:p-8">
              <SignInGate onOpen={() => void checkSession()} />
            </div>
          )}
        </div>
      )}
      {gate === 'open' && user && (
        // data-role hides the controls a role cannot use (global.css); the server refuses them too.
        <div data-role={user.role} key={user.id}>
          <div className="flex items-center justify-between gap-3">
            <h1 className="text-2xl sm:text-3xl">Admin Dashboard</h1>
            <button type="button" className="btn-secondary shrink-0 px-4 py-2 text-sm sm:px-6 sm:text-base" onClick={() => void logout()}>
              Logout
            </button>
          </div>
          <p className="mt-1 text-sm text-concrete-700" data-testid="signed-in-as">
            Signed in as <strong className="font-semibold text-ink">{user.name}</strong>
            <span className="ml-2 rounded-full bg-concrete-100 px-2 py-0.5 text-xs font-semibold text-concrete-800">{ROLE_LABELS[user.role]}</span>
          </p>
          {user.nameChosen === false && <NamePrompt current={user.name} />}
          <StatCards />
          <QuickActions />
          <AdminTabs role={user.role} />
        </div>
      )}
      {expired && user && (
        <SessionExpiredDialog email={user.email} onSignedIn={() => void signedInAgain()} onLogout={() => void logout()} />
      )}
      <Toaster />
    </>
  );
}

export default withErrorBoundary(AdminApp);
