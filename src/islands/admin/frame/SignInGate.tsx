import { useState, type FormEvent } from 'react';
import { api, ApiError } from '../../shared/api.ts';
import { showToast } from '../../shared/toast-store.ts';
import { INPUT_CLASS, LABEL_CLASS } from '../../shared/FormField.tsx';

/**
 * The sign-in card: e-mail and password (the e-mail may be left empty by the owner who signs in
 * with the site's admin password), the 6-digit code when the account asks for one, and one-tap
 * sign-in with a passkey. The server decides; the browser never sees a password's hash.
 */
export function SignInGate({ onOpen, totpRequired }: { onOpen: () => void; totpRequired: boolean }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [askCode, setAskCode] = useState(totpRequired);
  const [codeError, setCodeError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await api('/api/admin/login', { body: { ...(email.trim() ? { email: email.trim() } : {}), password, ...(askCode ? { code } : {}) } });
      setPassword('');
      setCode('');
      setCodeError(null);
      onOpen();
    } catch (error) {
      const tooMany = error instanceof ApiError && error.status === 429;
      const badCode = error instanceof ApiError && error.fields.code !== undefined;
      setCode('');
      if (badCode) {
        setAskCode(true);
        setCodeError(error.fields.code ?? null);
        showToast({ title: error.message, description: error.fields.code ?? error.message, variant: 'destructive' });
        return;
      }
      showToast({
        title: tooMany ? 'Too many attempts' : 'Invalid Password',
        description: tooMany ? (error as Error).message : 'Please enter the correct admin password.',
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  };

  const passkey = async () => {
    setBusy(true);
    try {
      // The WebAuthn helper loads only when someone uses a passkey: the gate itself stays small.
      const { startAuthentication } = await import('@simplewebauthn/browser');
      const options = await api<Parameters<typeof startAuthentication>[0]['optionsJSON']>('/api/admin/passkeys/login/options', { method: 'POST' });
      const response = await startAuthentication({ optionsJSON: options });
      await api('/api/admin/passkeys/login', { body: response });
      onOpen();
    } catch (error) {
      const cancelled = error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError');
      showToast({
        title: cancelled ? 'Passkey sign-in cancelled' : 'Passkey not accepted',
        description: cancelled ? 'No passkey was chosen.' : error instanceof Error ? error.message : 'Please sign in with your password.',
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="card mx-auto mt-6 max-w-md p-6 sm:p-8">
      <form onSubmit={(event) => void submit(event)}>
        <h1 className="text-2xl">Admin access</h1>
        <p className="mt-2 text-concrete-700">Staff only. Sign in with your passkey, or your e-mail and password.</p>
        <button type="button" className="btn-primary mt-6 w-full" disabled={busy} onClick={() => void passkey()}>
          Sign in with a passkey
        </button>
        <p className="mt-6 flex items-center gap-3 text-sm text-concrete-600" aria-hidden="true">
          <span className="h-px flex-1 bg-concrete-200" />
          or
          <span className="h-px flex-1 bg-concrete-200" />
        </p>
        <label htmlFor="admin-email" className={`mt-4 ${LABEL_CLASS}`}>
          E-mail
        </label>
        <input
          id="admin-email"
          type="email"
          autoComplete="username webauthn"
          value={email}
          aria-describedby="admin-email-hint"
          onChange={(event) => setEmail(event.target.value)}
          className={`mt-2 ${INPUT_CLASS}`}
        />
        <p id="admin-email-hint" className="mt-1 text-sm text-concrete-600">
          Leave empty to sign in as the owner with the site&rsquo;s admin password.
        </p>
        <label htmlFor="admin-password" className={`mt-4 ${LABEL_CLASS}`}>
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
        {askCode && (
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
              {codeError ?? 'The 6-digit code from your authenticator app, if you use one.'}
            </p>
          </>
        )}
        {/* The code stays optional here: the owner's is known to be on, but another person may have none. */}
        <button type="submit" className="btn-secondary mt-6 w-full" disabled={busy || password === ''}>
          {busy ? 'Checking…' : 'Unlock Dashboard'}
        </button>
      </form>
    </div>
  );
}
