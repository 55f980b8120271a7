import { useId, useState, type FormEvent } from 'react';
import { adminApi } from '../admin-api.ts';
import { showToast } from '../../shared/toast-store.ts';
import { errorMessage } from '../../shared/api.ts';
import { INPUT_CLASS, LABEL_CLASS } from '../../shared/FormField.tsx';
import { $staffUser, type SignedInStaff } from '../staff-user.ts';

/**
 * One's own name (PATCH /api/admin/me): it shows in invitations, progress notes and the Logs.
 * Used by My account and by the first sign-in's question; the header follows at once.
 */
export function NameForm({ initial, submitLabel = 'Save name', onSaved }: { initial: string; submitLabel?: string; onSaved?: (name: string) => void }) {
  const [name, setName] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inputId = useId();

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      const saved = await adminApi<SignedInStaff>('/api/admin/me', { method: 'PATCH', body: { name } });
      const user = $staffUser.get();
      if (user) $staffUser.set({ ...user, name: saved.name, nameChosen: true });
      setProblem(null);
      showToast({ title: 'Name saved', description: `Notes and logs now show "${saved.name}".`, variant: 'success' });
      onSaved?.(saved.name);
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(event) => void save(event)} className="flex flex-col gap-3 sm:flex-row sm:items-end">
      <div className="sm:w-80">
        <label htmlFor={inputId} className={LABEL_CLASS}>
          Your name
        </label>
        <input
          id={inputId}
          value={name}
          maxLength={100}
          required
          autoComplete="name"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${inputId}-problem` : undefined}
          onChange={(event) => setName(event.target.value)}
          className={`mt-2 ${INPUT_CLASS}`}
        />
        {problem && (
          <p id={`${inputId}-problem`} className="mt-1 text-sm text-danger-600">
            {problem}
          </p>
        )}
      </div>
      <button type="submit" className="btn-primary" disabled={busy || name.trim() === ''}>
        {busy ? 'Saving…' : submitLabel}
      </button>
    </form>
  );
}
