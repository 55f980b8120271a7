import { useEffect, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { adminApi as api } from '../admin-api.ts';
import { showToast } from '../../shared/toast-store.ts';
import { INPUT_CLASS, LABEL_CLASS } from '../../shared/FormField.tsx';
import { ConfirmDialog } from '../bookings/ConfirmDialog.tsx';
import { formatInstant } from '../bookings/format.ts';
import { ROLE_LABELS, STAFF_ROLES, type StaffRole, type StaffStatus } from '../../../domain/staff-roles.ts';
import { $staffUser } from '../staff-user.ts';
import type { StaffUserView } from '../../../server/services/staff/staff-users.ts';

type TeamMember = StaffUserView;

const STATUS_LABELS: Record<StaffStatus, string> = { invited: 'Invited', active: 'Active', deactivated: 'Deactivated' };
const ROLE_HINTS: Record<StaffRole, string> = {
  owner: 'everything, including the team and privacy requests',
  staff: 'the daily work: bookings, projects, photos, proofs, messages, workers, reviews',
  viewer: 'reads every tab and downloads CSV; changes nothing',
};

/** The Team tab (owner only, api.md "Staff accounts"): invite people, set roles, send links, deactivate. */
export default function TeamTab() {
  const me = useStore($staffUser);
  const [members, setMembers] = useState<TeamMember[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [deactivating, setDeactivating] = useState<TeamMember | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);

  const load = () =>
    api<TeamMember[]>('/api/admin/users')
      .then((list) => {
        setMembers(list);
        setFailed(false);
      })
      .catch(() => setFailed(true));
  useEffect(() => {
    void load();
  }, []);

  const act = async (member: TeamMember, work: () => Promise<unknown>, done: string) => {
    setBusyId(member.id);
    try {
      await work();
      showToast({ title: done, description: `${member.name} (${member.email})` });
      await load();
    } catch (error) {
      showToast({ title: 'Not changed', description: (error as Error).message, variant: 'destructive' });
    } finally {
      setBusyId(null);
    }
  };

  const update = (member: TeamMember, body: Record<string, string>, done: string) =>
    act(member, () => api(`/api/admin/users/${member.id}`, { method: 'PATCH', body }), done);

  return (
    <div className="space-y-8">
      <InviteForm onInvited={() => void load()} />
      <section aria-labelledby="team-heading">
        <h2 id="team-heading" className="text-xl">
          Team
        </h2>
        {failed && <p className="mt-3 text-danger-600">The team could not be loaded. Please try again.</p>}
        {members === null && !failed && (
          <p className="mt-3 text-concrete-600" role="status">
            Loading…
          </p>
        )}
        <ul className="mt-4 grid gap-3 lg:grid-cols-2">
          {members?.map((member) => {
            const busy = busyId === member.id;
            const roleId = `team-role-${member.id}`;
            return (
              <li key={member.id} className="card p-4" data-testid="team-member">
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <div className="min-w-0">
                    <p className="font-semibold text-ink">
                      {member.name}
                      {member.id === me?.id && <span className="ml-1 font-normal text-concrete-600">(you)</span>}
                    </p>
                    <p className="break-all text-sm text-concrete-700">{member.email}</p>
                  </div>
                  <span
                    className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${
                      member.status === 'active' ? 'bg-accent-50 text-accent-700' : member.status === 'invited' ? 'bg-amber-50 text-amber-800' : 'bg-concrete-100 text-concrete-700'
                    }`}
                  >
                    {STATUS_LABELS[member.status]}
                  </span>
                </div>
                <p className="mt-2 text-sm text-concrete-600">
                  {member.lastSignInAt ? `Last signed in ${formatInstant(member.lastSignInAt)}` : 'Never signed in'} ·{' '}
                  {member.passkeys === 1 ? '1 passkey' : `${member.passkeys} passkeys`} · {member.totp ? 'authenticator on' : 'no authenticator'}
                </p>
                <div className="mt-3 flex flex-wrap items-end gap-2">
                  <div>
                    <label htmlFor={roleId} className="block text-sm font-semibold">
                      Role<span className="sr-only"> of {member.name}</span>
                    </label>
                    <select
                      id={roleId}
                      value={member.role}
                      disabled={busy || member.status === 'deactivated'}
                      onChange={(event) => void update(member, { role: event.target.value }, `Role changed to ${ROLE_LABELS[event.target.value as StaffRole]}`)}
                      className="mt-1 min-h-11 rounded-lg border border-concrete-300 bg-white px-3 text-base sm:text-sm"
                    >
                      {STAFF_ROLES.map((role) => (
                        <option key={role} value={role}>
                          {ROLE_LABELS[role]}
                        </option>
                      ))}
                    </select>
                  </div>
                  {member.status === 'invited' && (
                    <button
                      type="button"
                      className="btn-secondary min-h-11 px-4 py-2 text-sm"
                      disabled={busy}
                      onClick={() => void act(member, () => api(`/api/admin/users/${member.id}/invitation`, { method: 'POST' }), 'Invitation sent again')}
                    >
                      Re-send invitation
                    </button>
                  )}
                  {member.status === 'active' && (
                    <button
                      type="button"
                      className="btn-secondary min-h-11 px-4 py-2 text-sm"
                      disabled={busy}
                      onClick={() => void act(member, () => api(`/api/admin/users/${member.id}/password-reset`, { method: 'POST' }), 'Password reset link sent')}
                    >
                      Send reset link
                    </button>
                  )}
                  {member.status === 'deactivated' ? (
                    <button type="button" className="btn-secondary min-h-11 px-4 py-2 text-sm" disabled={busy} onClick={() => void update(member, { status: 'active' }, 'Reactivated')}>
                      Reactivate
                    </button>
                  ) : (
                    <button
                      type="button"
                      className="min-h-11 rounded-lg px-3 text-sm font-semibold text-danger-600 underline"
                      disabled={busy}
                      onClick={() => setDeactivating(member)}
                    >
                      Deactivate
                    </button>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      </section>
      <ConfirmDialog
        open={deactivating !== null}
        title={`Deactivate ${deactivating?.name ?? ''}?`}
        message="They are signed out everywhere at once and cannot sign in until reactivated. Their name stays on what they did."
        confirmLabel="Deactivate"
        onConfirm={() => {
          const member = deactivating!;
          setDeactivating(null);
          void update(member, { status: 'deactivated' }, 'Deactivated');
        }}
        onClose={() => setDeactivating(null)}
      />
    </div>
  );
}

function InviteForm({ onInvited }: { onInvited: () => void }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<StaffRole>('staff');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await api('/api/admin/users', { body: { name, email, role } });
      showToast({ title: 'Invitation sent', description: `${name} will get an e-mail with a link valid for 48 hours.` });
      setName('');
      setEmail('');
      setErrors({});
      onInvited();
    } catch (error) {
      const fields = (error as { fields?: Record<string, string> }).fields ?? {};
      setErrors(fields);
      showToast({ title: 'Not invited', description: (error as Error).message, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  const field = (id: string, label: string, input: React.ReactNode, error?: string) => (
    <div>
      <label htmlFor={id} className={LABEL_CLASS}>
        {label}
      </label>
      {input}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-danger-600">
          {error}
        </p>
      )}
    </div>
  );

  return (
    <section aria-labelledby="invite-heading" className="card p-5">
      <h2 id="invite-heading" className="text-xl">
        Invite someone
      </h2>
      <p className="mt-1 text-sm text-concrete-600">They get an e-mail with a single-use link (48 hours) to choose their password.</p>
      <form noValidate onSubmit={(event) => void submit(event)} className="mt-4 grid gap-4 sm:grid-cols-2">
        {field(
          'invite-name',
          'Name',
          <input id="invite-name" required value={name} onChange={(event) => setName(event.target.value)} className={`mt-2 ${INPUT_CLASS}`} aria-describedby={errors.name ? 'invite-name-error' : undefined} />,
          errors.name,
        )}
        {field(
          'invite-email',
          'E-mail',
          <input
            id="invite-email"
            type="email"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            className={`mt-2 ${INPUT_CLASS}`}
            aria-describedby={errors.email ? 'invite-email-error' : undefined}
          />,
          errors.email,
        )}
        {field(
          'invite-role',
          'Role',
          <select id="invite-role" value={role} onChange={(event) => setRole(event.target.value as StaffRole)} className={`mt-2 ${INPUT_CLASS}`} aria-describedby="invite-role-hint">
            {STAFF_ROLES.map((option) => (
              <option key={option} value={option}>
                {ROLE_LABELS[option]}
              </option>
            ))}
          </select>,
        )}
        <p id="invite-role-hint" className="self-end text-sm text-concrete-600 sm:pb-3">
          {ROLE_LABELS[role]}: {ROLE_HINTS[role]}.
        </p>
        <button type="submit" className="btn-primary sm:col-span-2 sm:justify-self-start" disabled={busy}>
          {busy ? 'Sending…' : 'Send invitation'}
        </button>
      </form>
    </section>
  );
}
