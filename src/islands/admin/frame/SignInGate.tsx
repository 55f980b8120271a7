import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, ApiError } from '../../shared/api.ts';
import { showToast } from '../../shared/toast-store.ts';
import { INPUT_CLASS, LABEL_CLASS } from '../../shared/FormField.tsx';

/** The gate's words for a wrong password (admin-dashboard.md §8's title; a description for accounts). */
export const WRONG_PASSWORD = { title: 'Invalid Password', description: 'Check your e-mail address and password.' } as const;

interface SignInGateProps {
  onOpen: () => void;
  /** The card's heading: 'Admin access', or 'Session expired' when signing in again in place. */
  title?: string;
  intro?: string;
  /** The e-mail to start from (the person whose session ended). */
  initialEmail?: string;
  /** The heading's id, for a dialog that names itself by it. */
  headingId?: string;
}

/**
 * The sign-in card, in two steps: e-mail and password (the e-mail may be left empty by the owner
 * who signs in with the site's admin password), then, when the server answers `codeRequired`,
 * the 6-digit code alone. The server decides each step; a refusal is said beside the field it is
 * about, so nothing covers the button on a phone. One-tap sign-in with a passkey too.
 */
export function SignInGate({ onOpen, title = 'Admin access', intro, initialEmail = '', headingId }: SignInGateProps) {
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [step, setStep] = useState<'password' | 'code'>('password');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const codeRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (step === 'code') codeRef.current?.focus();
  }, [step]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await api('/api/admin/login', { body: { ...(email.trim() ? { email: email.trim() } : {}), password, ...(step === 'code' ? { code } : {}) } });
      setPassword('');
      setCode('');
      setProblem(null);
      onOpen();
    } catch (error) {
      const answer = error instanceof ApiError ? error : null;
      setCode('');
      if (answer?.extra.codeRequired === true) {
        // The password was right: the code is the next step. A first visit to it is no failure.
        setProblem(step === 'code' ? answer.message : null);
        setStep('code');
        return;
      }
      if (answer?.status === 429) {
        setProblem(answer.message);
        showToast({ title: 'Too many attempts', description: answer.message, variant: 'destructive' });
        return;
      }
      const wrongPassword = answer?.message === WRONG_PASSWORD.title;
      setStep('password');
      setProblem(wrongPassword ? WRONG_PASSWORD.description : answer ? answer.message : 'Could not reach the site. Check the connection and try again.');
      if (wrongPassword) showToast({ ...WRONG_PASSWORD, variant: 'destructive' });
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

  const problemBox = problem && (
    <p id="admin-signin-problem" role="alert" className="mt-4 rounded-xl border-l-4 border-danger-600 bg-danger-50 p-3 text-sm font-semibold text-danger-600">
      {problem}
    </p>
  );

  if (step === 'code') {
    return (
      <form onSubmit={(event) => void submit(event)} data-testid="signin-code-step">
        <h1 id={headingId} className="text-2xl">{title}</h1>
        <p className="mt-2 text-concrete-700 [overflow-wrap:anywhere]">
          Password accepted. Enter the 6-digit code your authenticator app shows now{email.trim() ? ` for ${email.trim()}` : ''}.
        </p>
        {problemBox}
        <label htmlFor="admin-code" className={`mt-4 ${LABEL_CLASS}`}>
          Authenticator code
        </label>
        <input
          ref={codeRef}
          id="admin-code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{6}"
          maxLength={6}
          required
          value={code}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'admin-signin-problem' : 'admin-code-hint'}
          onChange={(event) => setCode(event.target.value.replace(/\D/g, ''))}
          className={`mt-2 ${INPUT_CLASS} tracking-widest tabular-nums`}
        />
        <p id="admin-code-hint" className="mt-1 text-sm text-concrete-600">
          Each code works once; if yours was just used, wait for the next one.
        </p>
        <button type="submit" className="btn-primary mt-6 w-full" disabled={busy || code.length !== 6}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
        <button
          type="button"
          className="mt-3 min-h-11 w-full rounded-xl text-sm font-semibold text-concrete-700 underline"
          onClick={() => {
            setStep('password');
            setPassword('');
            setProblem(null);
          }}
        >
          Back to e-mail and password
        </button>
      </form>
    );
  }

  return (
    <form onSubmit={(event) => void submit(event)}>
      <h1 id={headingId} className="text-2xl">{title}</h1>
      <p className="mt-2 text-concrete-700">{intro ?? 'Staff only. Sign in with your passkey, or your e-mail and password.'}</p>
      {problemBox}
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
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? 'admin-signin-problem' : undefined}
        onChange={(event) => setPassword(event.target.value)}
        className={`mt-2 ${INPUT_CLASS}`}
      />
      <button type="submit" className="btn-secondary mt-6 w-full" disabled={busy || password === ''}>
        {busy ? 'Checking…' : 'Unlock Dashboard'}
      </button>
    </form>
  );
}
