import { useEffect, useState, type FormEvent } from 'react';
import { api, ApiError } from '../shared/api.ts';
import { withErrorBoundary } from '../shared/ErrorBoundary.tsx';
import { Toaster } from '../shared/Toaster.tsx';
import { showToast } from '../shared/toast-store.ts';
import { AdminTabs } from './AdminTabs.tsx';
import { INPUT_CLASS, LABEL_CLASS } from '../shared/FormField.tsx';
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

  const checkSession = () =>
    fetch('/api/admin/session', { credentials: 'include', headers: { Accept: 'application/json' } })
      .then(async (response) => {
        if (response.ok) return setGate('open');
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
    setGate('locked');
  };

  return (
    <>
      {gate !== 'open' && (
        // As tall as the sign-in card with its authenticator field (down to 320 px wide), so the
        // footer does not jump when the card replaces the session check (a layout shift of 0.15 on
        // every visit). Whether the field shows is only known from the check's answer.
        <div className="flow-root min-h-[32rem]">
          {gate === 'checking' && (
            <p className="py-16 text-center text-concrete-600" role="status">
              Checking your session…
            </p>
          )}
          {gate === 'locked' && <PasswordGate totpRequired={totpRequired} onOpen={() => setGate('open')} />}
        </div>
      )}
      {gate === 'open' && (
        <div>
          <div className="flex items-center justify-between gap-3">
            <h1 className="text-2xl sm:text-4xl">Admin Dashboard</h1>
            <button type="button" className="btn-secondary shrink-0 px-4 py-2 text-sm sm:px-6 sm:text-base" onClick={() => void logout()}>
              Logout
            </button>
          </div>
          <StatCards />
          <QuickActions />
          <AdminTabs />
        </div>
      )}
      <Toaster />
    </>
  );
}

function PasswordGate({ onOpen, totpRequired }: { onOpen: () => void; totpRequired: boolean }) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await api('/api/admin/login', { body: totpRequired ? { password, code } : { password } });
      setPassword('');
      setCode('');
      setCodeError(null);
      onOpen();
    } catch (error) {
      const tooMany = error instanceof ApiError && error.status === 429;
      const badCode = error instanceof ApiError && error.fields.code !== undefined;
      setCode('');
      if (badCode) {
        setCodeError(error.fields.code ?? null);
        showToast({ title: error.message, description: error.fields.code ?? error.message, variant: 'destructive' });
        return;
      }
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
      {totpRequired && (
        <>
          <label htmlFor="admin-code" className={`mt-4 ${LABEL_CLASS}`}>
            Authenticator code
          </label>
          <input
            id="admin-code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            required
            value={code}
            aria-invalid={codeError ? true : undefined}
            aria-describedby="admin-code-hint"
            onChange={(event) => {
              setCode(event.target.value.replace(/\D/g, ''));
              setCodeError(null);
            }}
            className={`mt-2 ${INPUT_CLASS} tracking-widest tabular-nums`}
          />
          <p id="admin-code-hint" className={`mt-1 text-sm ${codeError ? 'text-danger-600' : 'text-concrete-600'}`}>
            {codeError ?? 'The 6-digit code from your authenticator app.'}
          </p>
        </>
      )}
      <button
        type="submit"
        className="btn-primary mt-6 w-full"
        disabled={busy || password === '' || (totpRequired && code.length !== 6)}
      >
        {busy ? 'Checking…' : 'Unlock Dashboard'}
      </button>
    </form>
  );
}

export default withErrorBoundary(AdminApp);
