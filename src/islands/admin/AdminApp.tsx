import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { api } from '../shared/api.ts';
import { withErrorBoundary } from '../shared/ErrorBoundary.tsx';
import { Toaster } from '../shared/Toaster.tsx';
import { showToast } from '../shared/toast-store.ts';
import { AdminTabs } from './AdminTabs.tsx';
import { SignInGate } from './frame/SignInGate.tsx';
import { $staffUser, type SignedInStaff } from './staff-user.ts';
import { ROLE_LABELS } from '../../domain/staff-roles.ts';
import { ADMIN_UNAUTHORISED_EVENT } from './admin-api.ts';
import { StatCards } from './frame/StatCards.tsx';
import { QuickActions } from './frame/QuickActions.tsx';
import { $mapTiles, type MapTiles } from './operations/map-tiles.ts';

type Gate = 'checking' | 'locked' | 'open';

/**
 * /admin: the password gate, then the dashboard. The server decides: the gate asks
 * GET /api/admin/session and POST /api/admin/login; the browser never sees the password's hash.
 */
function AdminApp({ mapTiles }: { mapTiles?: MapTiles }) {
  const [gate, setGate] = useState<Gate>('checking');
  const [totpRequired, setTotpRequired] = useState(false);
  const user = useStore($staffUser);

  const checkSession = () =>
    fetch('/api/admin/session', { credentials: 'include', headers: { Accept: 'application/json' } })
      .then(async (response) => {
        if (response.ok) {
          $staffUser.set(((await response.json()) as { user: SignedInStaff }).user);
          return setGate('open');
        }
        $staffUser.set(null);
        const body = (await response.json().catch(() => ({}))) as { totpRequired?: boolean };
        setTotpRequired(body.totpRequired === true);
        setGate('locked');
      })
      .catch(() => setGate('locked'));
  // The tile source for tabs that draw maps (Locations); set before any tab renders.
  if (mapTiles && $mapTiles.get() === null) $mapTiles.set(mapTiles);

  useEffect(() => {
    void checkSession();
  }, []);

  // Any admin call answering 401 (see admin-api.ts): the session ended, so the gate returns.
  useEffect(() => {
    const expired = () => {
      setGate((current) => {
        if (current === 'open') {
          showToast({ title: 'Session expired', description: 'Please sign in again.', variant: 'destructive' });
        }
        return 'locked';
      });
    };
    window.addEventListener(ADMIN_UNAUTHORISED_EVENT, expired);
    return () => window.removeEventListener(ADMIN_UNAUTHORISED_EVENT, expired);
  }, []);

  const logout = async () => {
    await api('/api/admin/logout', { method: 'POST' }).catch(() => undefined);
    $staffUser.set(null);
    setGate('locked');
  };

  return (
    <>
      {gate !== 'open' && (
        // As tall as the sign-in card with its authenticator field (down to 320 px wide), so the
        // footer does not jump when the card replaces the session check (a layout shift of 0.15 on
        // every visit). Whether the field shows is only known from the check's answer.
        <div className="flow-root min-h-[42rem]">
          {gate === 'checking' && (
            <p className="py-16 text-center text-concrete-600" role="status">
              Checking your session…
            </p>
          )}
          {gate === 'locked' && <SignInGate totpRequired={totpRequired} onOpen={() => void checkSession()} />}
        </div>
      )}
      {gate === 'open' && user && (
        // data-role hides the controls a role cannot use (global.css); the server refuses them too.
        <div data-role={user.role}>
          <div className="flex items-center justify-between gap-3">
            <h1 className="text-2xl sm:text-4xl">Admin Dashboard</h1>
            <button type="button" className="btn-secondary shrink-0 px-4 py-2 text-sm sm:px-6 sm:text-base" onClick={() => void logout()}>
              Logout
            </button>
          </div>
          <p className="mt-1 text-sm text-concrete-700" data-testid="signed-in-as">
            Signed in as <strong className="font-semibold text-ink">{user.name}</strong>
            <span className="ml-2 rounded-full bg-concrete-100 px-2 py-0.5 text-xs font-semibold text-concrete-800">{ROLE_LABELS[user.role]}</span>
          </p>
          <StatCards />
          <QuickActions />
          <AdminTabs role={user.role} />
        </div>
      )}
      <Toaster />
    </>
  );
}

export default withErrorBoundary(AdminApp);
