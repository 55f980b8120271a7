import { useEffect, useRef, useState, type FormEvent } from 'react';
import { INPUT_CLASS, LABEL_CLASS } from '../shared/FormField.tsx';

const CANCEL_BUTTON = 'min-h-11 rounded-lg px-3 text-sm font-semibold text-danger-600 underline disabled:opacity-50';

export type ProofBody = { code: string } | { password: string };

/**
 * Asks for a current authenticator code or the password before a second factor is taken away:
 * six digits are sent as a code, anything else as the password. The server's refusal shows
 * under the field; `onConfirm` throws it.
 */
export function ProofForm({
  id,
  label,
  submit,
  cancel,
  onConfirm,
  onCancel,
}: {
  id: string;
  label: string;
  submit: string;
  cancel: string;
  onConfirm: (body: ProofBody) => Promise<void>;
  onCancel: () => void;
}) {
  const [proof, setProof] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The field takes the focus from the button that opened it (which is gone now).
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), []);
  const send = async (event: FormEvent) => {
    event.preventDefault();
    const typed = proof.trim();
    setBusy(true);
    try {
      await onConfirm(/^\d{6}$/.test(typed) ? { code: typed } : { password: proof });
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(event) => void send(event)} className="mt-3 w-full space-y-3">
      <div className="sm:w-96">
        <label htmlFor={`${id}-proof`} className={LABEL_CLASS}>
          {label}
        </label>
        <input
          id={`${id}-proof`}
          type="password"
          autoComplete="current-password"
          ref={field}
          value={proof}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => {
            setProof(event.target.value);
            setError(null);
          }}
          className={`mt-2 ${INPUT_CLASS}`}
        />
        {error && (
          <p id={`${id}-error`} className="mt-1 text-sm text-danger-600">
            {error}
          </p>
        )}
      </div>
      <div className="flex flex-wrap gap-3">
        <button type="submit" className="btn-primary" disabled={busy || proof.trim().length === 0}>
          {submit}
        </button>
        <button type="button" className={CANCEL_BUTTON} onClick={onCancel}>
          {cancel}
        </button>
      </div>
    </form>
  );
}
