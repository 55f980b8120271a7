import { useEffect, useState, type FormEvent } from 'react';
import { api, ApiError } from '../shared/api.ts';
import { withErrorBoundary } from '../shared/ErrorBoundary.tsx';
import { Toaster } from '../shared/Toaster.tsx';
import { showToast } from '../shared/toast-store.ts';
import { AdminTabs } from './AdminTabs.tsx';
import { INPUT_CLASS, LABEL_CLASS } from '../booking/Field.tsx';
import { $mapTiles, type MapTiles } from './operations/map-tiles.ts';

type Gate = 'checking' | 'locked' | 'open';

/**
 * /admin: the password gate, then the dashboard. The server decides: the gate asks
 * GET /api/admin/session and POST /api/admin/login; the browser never sees the password's hash.
 */
function AdminApp({ mapTiles }: { mapTiles?: MapTiles }) {
  const [gate, setGate] = useState<Gate>('checking');
  // The tile source for tabs that draw maps (Locations); set before any tab renders.
  if (mapTiles && $mapTiles.get() === null) $mapTiles.set(mapTiles);

  useEffect(() => {
    api('/api/admin/session')
      .then(() => setGate('open'))
      .catch(() => setGate('locked'));
  }, []);

  const logout = async () => {
    await api('/api/admin/logout', { method: 'POST' }).catch(() => undefined);
    setGate('locked');
  };

  return (
    <>
      {gate === 'checking' && (
        <p className="py-16 text-center text-concrete-600" role="status">
          Checking your session…
        </p>
      )}
      {gate === 'locked' && <PasswordGate onOpen={() => setGate('open')} />}
      {gate === 'open' && (
        <div>
          <div className="flex flex-wrap items-center justify-between gap-4">
            <h1 className="text-3xl sm:text-4xl">Admin Dashboard</h1>
            <button type="button" className="btn-secondary" onClick={() => void logout()}>
              Logout
            </button>
          </div>
          <AdminTabs />
        </div>
      )}
      <Toaster />
    </>
  );
}

function PasswordGate({ onOpen }: { onOpen: () => void }) {
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await api('/api/admin/login', { body: { password } });
      setPassword('');
      onOpen();
    } catch (error) {
      const tooMany = error instanceof ApiError && error.status === 429;
      showToast({
        title: tooMany ? 'Too many attempts' : 'Invalid Password',
        description: tooMany ? error.message : 'Please enter the correct admin password.',
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} className="card mx-auto mt-6 max-w-md p-6 sm:p-8">
      <h1 className="text-2xl">Admin access</h1>
      <p className="mt-2 text-concrete-700">Staff only. Enter the admin password to open the dashboard.</p>
      <label htmlFor="admin-password" className={`mt-6 ${LABEL_CLASS}`}>
        Password
      </label>
      <input
        id="admin-password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        className={`mt-2 ${INPUT_CLASS}`}
      />
      <button type="submit" className="btn-primary mt-6 w-full" disabled={busy || password === ''}>
        {busy ? 'Checking…' : 'Unlock Dashboard'}
      </button>
    </form>
  );
}

export default withErrorBoundary(AdminApp);
