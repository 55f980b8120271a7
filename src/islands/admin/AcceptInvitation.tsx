import { useEffect, useState, type FormEvent } from 'react';
import { api, ApiError } from '../shared/api.ts';
import { withErrorBoundary } from '../shared/ErrorBoundary.tsx';
import { Toaster } from '../shared/Toaster.tsx';
import { INPUT_CLASS, LABEL_CLASS } from '../shared/FormField.tsx';
import { MIN_STAFF_PASSWORD_LENGTH, ROLE_LABELS, type StaffRole } from '../../domain/staff-roles.ts';
import { addPasskey, deviceName, passkeyError } from './passkey-client.ts';

interface LinkInfo {
  name: string;
  email: string;
  role: StaffRole;
  purpose: 'invite' | 'reset';
}

type Step = { kind: 'checking' } | { kind: 'gone'; message: string } | { kind: 'password'; info: LinkInfo } | { kind: 'done'; info: LinkInfo };

/**
 * Accepting an invitation (or a reset link): choose a password of at least 12 characters that is
 * not a common one (the server decides and says why), then optionally add a passkey at once.
 * The token is taken from the address and removed from it, so it stays out of the history.
 */
function AcceptInvitation() {
  const [token] = useState(() => (typeof window === 'undefined' ? '' : (new URLSearchParams(window.location.search).get('t') ?? '')));
  const [step, setStep] = useState<Step>({ kind: 'checking' });

  useEffect(() => {
    window.history.replaceState(null, '', window.location.pathname);
    api<LinkInfo>('/api/admin/invitations/inspect', { body: { token } })
      .then((info) => setStep({ kind: 'password', info }))
      .catch((error: unknown) => setStep({ kind: 'gone', message: error instanceof Error ? error.message : 'This link does not work.' }));
  }, [token]);

  return (
    <div className="card mx-auto mt-6 max-w-md p-6 sm:p-8">
      {step.kind === 'checking' && (
        <p className="text-concrete-600" role="status">
          Checking your link…
        </p>
      )}
      {step.kind === 'gone' && (
        <>
          <h1 className="text-2xl">This link no longer works</h1>
          <p className="mt-2 text-concrete-700">{step.message}</p>
          <a className="btn-secondary mt-6 w-full" href="/admin">
            Go to sign-in
          </a>
        </>
      )}
      {step.kind === 'password' && <PasswordForm token={token} info={step.info} onDone={() => setStep({ kind: 'done', info: step.info })} />}
      {step.kind === 'done' && <PasskeyOffer info={step.info} />}
      <Toaster />
    </div>
  );
}

function PasswordForm({ token, info, onDone }: { token: string; info: LinkInfo; onDone: () => void }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await api('/api/admin/invitations/accept', { body: { token, password } });
      onDone();
    } catch (failure) {
      setError(failure instanceof ApiError ? (failure.fields.password ?? failure.message) : (failure as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <h1 className="text-2xl">{info.purpose === 'invite' ? `Welcome, ${info.name}` : 'Choose a new password'}</h1>
      <p className="mt-2 text-concrete-700">
        {info.purpose === 'invite' ? `You are joining the dashboard as ${ROLE_LABELS[info.role].toLowerCase()}. ` : ''}
        You will sign in as <strong className="break-all">{info.email}</strong>.
      </p>
      {/* Lets password managers save the pair under the right name. */}
      <input type="email" autoComplete="username" value={info.email} readOnly hidden />
      <label htmlFor="new-password" className={`mt-6 ${LABEL_CLASS}`}>
        New password
      </label>
      <input
        id="new-password"
        type="password"
        autoComplete="new-password"
        required
        minLength={MIN_STAFF_PASSWORD_LENGTH}
        value={password}
        aria-invalid={error ? true : undefined}
        aria-describedby="new-password-hint"
        onChange={(event) => {
          setPassword(event.target.value);
          setError(null);
        }}
        className={`mt-2 ${INPUT_CLASS}`}
      />
      <p id="new-password-hint" className={`mt-1 text-sm ${error ? 'text-danger-600' : 'text-concrete-600'}`} aria-live="polite">
        {error ?? `At least ${MIN_STAFF_PASSWORD_LENGTH} characters. A few unrelated words make a strong one; common passwords are refused.`}
      </p>
      <button type="submit" className="btn-primary mt-6 w-full" disabled={busy || password.length === 0}>
        {busy ? 'Saving…' : 'Set password'}
      </button>
    </form>
  );
}

function PasskeyOffer({ info }: { info: LinkInfo }) {
  const [state, setState] = useState<'offer' | 'busy' | 'added'>('offer');
  const [error, setError] = useState<string | null>(null);

  const add = async () => {
    setState('busy');
    setError(null);
    try {
      await addPasskey(deviceName());
      setState('added');
    } catch (failure) {
      setError(passkeyError(failure));
      setState('offer');
    }
  };

  return (
    <div>
      <h1 className="text-2xl">You&rsquo;re in, {info.name}</h1>
      <p className="mt-2 text-concrete-700" role="status">
        {state === 'added' ? 'Passkey added: next time, sign in with one tap.' : 'Your password is set and you are signed in.'}
      </p>
      {state !== 'added' && (
        <>
          <p className="mt-4 text-concrete-700">Add a passkey to sign in with this device&rsquo;s screen lock instead of typing your password.</p>
          <button type="button" className="btn-primary mt-4 w-full" disabled={state === 'busy'} onClick={() => void add()}>
            {state === 'busy' ? 'Waiting for your device…' : 'Add a passkey'}
          </button>
          {error && <p className="mt-2 text-sm text-danger-600">{error}</p>}
        </>
      )}
      <a className={`${state === 'added' ? 'btn-primary' : 'btn-secondary'} mt-4 w-full`} href="/admin">
        Open the dashboard
      </a>
    </div>
  );
}

export default withErrorBoundary(AcceptInvitation);
