import { useEffect, useState, type FormEvent } from 'react';
import { adminApi as api } from '../admin-api.ts';
import { showToast } from '../../shared/toast-store.ts';
import { INPUT_CLASS, LABEL_CLASS } from '../../shared/FormField.tsx';
import { formatInstant } from '../bookings/format.ts';
import { ROLE_LABELS, type StaffRole } from '../../../domain/staff-roles.ts';
import { addPasskey, deviceName, passkeyError } from '../passkey-client.ts';
import { ADMIN_SIGNED_OUT_EVENT } from '../admin-api.ts';
import { NameForm } from '../frame/NameForm.tsx';
import { ProofForm, type ProofBody } from '../ProofForm.tsx';

interface Me {
  id: number;
  name: string;
  email: string;
  role: StaffRole;
  totp: boolean;
  passkeys: { id: number; name: string; createdAt: string; lastUsedAt: string | null }[];
}

interface SessionRow {
  id: string;
  device: string;
  createdAt: string;
  lastSeenAt: string;
  current: boolean;
}

const SMALL_BUTTON = 'btn-secondary min-h-11 px-4 py-2 text-sm';
const LINK_BUTTON = 'min-h-11 rounded-lg px-3 text-sm font-semibold text-danger-600 underline disabled:opacity-50';

/** My account (every role): one's passkeys, authenticator app and sessions (api.md "Staff accounts"). */
export default function AccountTab() {
  const [me, setMe] = useState<Me | null>(null);
  const [sessions, setSessions] = useState<SessionRow[] | null>(null);

  const load = async () => {
    const [profile, list] = await Promise.all([api<Me>('/api/admin/me'), api<SessionRow[]>('/api/admin/me/sessions')]);
    setMe(profile);
    setSessions(list);
  };
  useEffect(() => {
    load().catch(() => undefined);
  }, []);

  if (!me || !sessions) {
    return (
      <p className="text-concrete-600" role="status">
        Loading…
      </p>
    );
  }
  return (
    <div className="space-y-6">
      <section aria-labelledby="me-heading">
        <h2 id="me-heading" className="text-xl">
          {me.name}
        </h2>
        <p className="mt-1 break-all text-concrete-700">
          {me.email} · {ROLE_LABELS[me.role]}
        </p>
        <div className="mt-4">
          <NameForm initial={me.name} onSaved={() => void load()} />
        </div>
      </section>
      <Passkeys me={me} onChange={() => void load()} />
      <Authenticator me={me} onChange={() => void load()} />
      <Sessions sessions={sessions} onChange={() => void load()} />
    </div>
  );
}

function Passkeys({ me, onChange }: { me: Me; onChange: () => void }) {
  const [name, setName] = useState(deviceName());
  const [busy, setBusy] = useState(false);

  const add = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await addPasskey(name.trim() || deviceName());
      showToast({ title: 'Passkey added', description: `"${name}" now signs you in with one tap.` });
      onChange();
    } catch (error) {
      showToast({ title: 'Passkey not added', description: passkeyError(error), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  // Removing one asks for the password or a current code again (api.md "Second factor and links").
  const [removing, setRemoving] = useState<{ id: number; name: string } | null>(null);
  const remove = async (body: ProofBody) => {
    await api(`/api/admin/me/passkeys/${removing!.id}`, { method: 'DELETE', body });
    showToast({ title: 'Passkey removed', description: `"${removing!.name}" no longer signs you in.` });
    setRemoving(null);
    onChange();
  };

  return (
    <section aria-labelledby="passkeys-heading" className="card p-5">
      <h3 id="passkeys-heading" className="text-lg">
        Passkeys
      </h3>
      <p className="mt-1 text-sm text-concrete-600">Sign in with one tap: your phone&rsquo;s or computer&rsquo;s screen lock, no password to type.</p>
      {me.passkeys.length === 0 ? (
        <p className="mt-3 text-concrete-700">No passkeys yet.</p>
      ) : (
        <ul className="mt-3 divide-y divide-concrete-100" data-testid="passkey-list">
          {me.passkeys.map((key) => (
            <li key={key.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <div className="min-w-0">
                <p className="font-semibold text-ink">{key.name}</p>
                <p className="text-sm text-concrete-600">
                  Added {formatInstant(key.createdAt)}
                  {key.lastUsedAt ? ` · last used ${formatInstant(key.lastUsedAt)}` : ' · not used yet'}
                </p>
              </div>
              {removing?.id !== key.id && (
                <button type="button" className={LINK_BUTTON} onClick={() => setRemoving(key)} aria-label={`Remove passkey ${key.name}`}>
                  Remove
                </button>
              )}
              {removing?.id === key.id && (
                <ProofForm
                  id={`passkey-remove-${key.id}`}
                  label="Your password, or a current code from your authenticator app"
                  submit="Remove passkey"
                  cancel="Keep it"
                  onConfirm={remove}
                  onCancel={() => setRemoving(null)}
                />
              )}
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={(event) => void add(event)} className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="sm:w-72">
          <label htmlFor="passkey-name" className={LABEL_CLASS}>
            Passkey name
          </label>
          <input id="passkey-name" value={name} maxLength={60} onChange={(event) => setName(event.target.value)} className={`mt-2 ${INPUT_CLASS}`} />
        </div>
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? 'Waiting for your device…' : 'Add a passkey'}
        </button>
      </form>
    </section>
  );
}

function Authenticator({ me, onChange }: { me: Me; onChange: () => void }) {
  const [setup, setSetup] = useState<{ secret: string; uri: string } | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  const start = async () => setSetup(await api<{ secret: string; uri: string }>('/api/admin/me/totp/setup', { method: 'POST' }));
  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await api('/api/admin/me/totp/confirm', { body: { code } });
      setSetup(null);
      setCode('');
      showToast({ title: 'Authenticator on', description: 'Signing in with your password now also asks for its code.' });
      onChange();
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  // Turning it off asks for a current code or the password again (api.md "Second factor and links").
  const [confirming, setConfirming] = useState(false);
  const turnOff = async (body: ProofBody) => {
    await api('/api/admin/me/totp', { method: 'DELETE', body });
    setConfirming(false);
    showToast({ title: 'Authenticator off', description: 'Your password alone signs you in again.' });
    onChange();
  };

  return (
    <section aria-labelledby="totp-heading" className="card p-5">
      <h3 id="totp-heading" className="text-lg">
        Authenticator app
      </h3>
      <p className="mt-1 text-sm text-concrete-600">
        {me.totp ? 'On: signing in with your password also asks for a 6-digit code.' : 'Off: add one so that a password alone cannot open your account.'}
      </p>
      {me.totp && !setup && !confirming && (
        <button type="button" className={`${LINK_BUTTON} mt-2 -ml-3`} onClick={() => setConfirming(true)}>
          Turn off
        </button>
      )}
      {me.totp && confirming && (
        <ProofForm
          id="totp-off"
          label="Current code from the app, or your password"
          submit="Turn off"
          cancel="Keep it on"
          onConfirm={turnOff}
          onCancel={() => setConfirming(false)}
        />
      )}
      {!me.totp && !setup && (
        <button type="button" className={`${SMALL_BUTTON} mt-3`} onClick={() => void start()}>
          Set up an authenticator app
        </button>
      )}
      {setup && (
        <form onSubmit={(event) => void confirm(event)} className="mt-3 space-y-3">
          <p className="text-sm text-concrete-700">
            On this phone, <a className="font-semibold underline" href={setup.uri}>open the authenticator app</a>; elsewhere, type this key into it:
          </p>
          <p className="rounded-lg bg-concrete-50 p-3 font-mono text-sm break-all" data-testid="totp-secret">
            {setup.secret}
          </p>
          <div className="sm:w-56">
            <label htmlFor="totp-confirm" className={LABEL_CLASS}>
              Code from the app
            </label>
            <input
              id="totp-confirm"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              value={code}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'totp-confirm-error' : undefined}
              onChange={(event) => {
                setCode(event.target.value.replace(/\D/g, ''));
                setError(null);
              }}
              className={`mt-2 ${INPUT_CLASS} tracking-widest tabular-nums`}
            />
            {error && (
              <p id="totp-confirm-error" className="mt-1 text-sm text-danger-600">
                {error}
              </p>
            )}
          </div>
          <button type="submit" className="btn-primary" disabled={code.length !== 6}>
            Turn on
          </button>
        </form>
      )}
    </section>
  );
}

/**
 * Each End button names its own session (two phones of the same kind read alike otherwise):
 * its place in the list, the device, this one or when it signed in, and when it was last seen.
 */
function sessionEndLabel(session: SessionRow, index: number): string {
  const which = session.current ? 'this device' : `signed in ${formatInstant(session.createdAt)}`;
  return `End session ${index + 1} on ${session.device} (${which}, last seen ${formatInstant(session.lastSeenAt)})`;
}

function Sessions({ sessions, onChange }: { sessions: SessionRow[]; onChange: () => void }) {
  const end = async (session: SessionRow) => {
    await api(`/api/admin/me/sessions/${session.id}`, { method: 'DELETE' });
    if (session.current) window.dispatchEvent(new Event(ADMIN_SIGNED_OUT_EVENT));
    else onChange();
  };
  const everywhere = async () => {
    await api('/api/admin/me/sessions', { method: 'DELETE' });
    window.dispatchEvent(new Event(ADMIN_SIGNED_OUT_EVENT));
  };
  return (
    <section aria-labelledby="sessions-heading" className="card p-5">
      <h3 id="sessions-heading" className="text-lg">
        Where you are signed in
      </h3>
      <ul className="mt-3 divide-y divide-concrete-100" data-testid="session-list">
        {sessions.map((session, index) => (
          <li key={session.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
            <div className="min-w-0">
              <p className="font-semibold text-ink">
                {session.device}
                {session.current && <span className="ml-2 rounded-full bg-accent-50 px-2 py-0.5 text-xs font-semibold text-accent-700">This device</span>}
              </p>
              <p className="text-sm text-concrete-600">
                Signed in {formatInstant(session.createdAt)} · last seen {formatInstant(session.lastSeenAt)}
              </p>
            </div>
            <button type="button" className={LINK_BUTTON} onClick={() => void end(session)} aria-label={sessionEndLabel(session, index)}>
              End
            </button>
          </li>
        ))}
      </ul>
      <button type="button" className={`${SMALL_BUTTON} mt-3`} onClick={() => void everywhere()}>
        Sign out everywhere
      </button>
    </section>
  );
}
