import { useId, useState, type FormEvent } from 'react';
import { adminApi } from '../admin-api.ts';
import { showToast } from '../../shared/toast-store.ts';
import { INPUT_CLASS, LABEL_CLASS } from '../../shared/FormField.tsx';

interface ErasureResult {
  bookingsAnonymised: number;
  enquiriesDeleted: number;
  reviewsDeleted: number;
  emailsDeleted: number;
  filesDeleted: number;
}

/**
 * A person's data rights (UK GDPR; /privacy promises an answer within 30 days): download
 * everything held about an e-mail address, or erase it. Erasure asks first and cannot be undone.
 */
export function PrivacyRequests() {
  const inputId = useId();
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const trimmed = email.trim();
  const exportUrl = `/api/admin/privacy/export?email=${encodeURIComponent(trimmed)}`;

  const erase = async (event: FormEvent) => {
    event.preventDefault();
    if (!trimmed) return;
    if (!window.confirm(`Erase the personal data of ${trimmed}? Bookings kept for the accounts are anonymised; everything else is deleted. This cannot be undone.`)) return;
    setBusy(true);
    try {
      const result = await adminApi<ErasureResult>('/api/admin/privacy/erase', { body: { email: trimmed } });
      showToast({
        title: 'Personal Data Erased',
        description: `${result.bookingsAnonymised} bookings anonymised; ${result.enquiriesDeleted} enquiries, ${result.reviewsDeleted} reviews, ${result.emailsDeleted} e-mails and ${result.filesDeleted} files deleted.`,
      });
      setEmail('');
    } catch (error) {
      showToast({ title: 'Erase Failed', description: error instanceof Error ? error.message : undefined, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section data-owner aria-labelledby={`${inputId}-heading`} className="card mt-10 p-5 sm:p-6">
      <h2 id={`${inputId}-heading`} className="text-xl">Privacy requests</h2>
      <p className="mt-1 text-sm text-concrete-700">
        For a customer's request to see or erase their data. Bookings are kept 7 years for the accounts, so erasing
        anonymises them instead of deleting them.
      </p>
      <form onSubmit={(event) => void erase(event)} className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex-1">
          <label htmlFor={inputId} className={LABEL_CLASS}>
            Customer's e-mail address
          </label>
          <input id={inputId} type="email" autoComplete="off" value={email} onChange={(event) => setEmail(event.target.value)} className={`mt-2 ${INPUT_CLASS}`} />
        </div>
        <a
          href={trimmed ? exportUrl : undefined}
          aria-disabled={!trimmed}
          className={`btn-secondary ${trimmed ? '' : 'pointer-events-none opacity-50'}`}
        >
          Download data (JSON)
        </a>
        <button type="submit" className="btn border border-danger-600 bg-white text-danger-600 hover:bg-danger-50 disabled:opacity-50" disabled={busy || !trimmed}>
          {busy ? 'Erasing…' : 'Erase data'}
        </button>
      </form>
    </section>
  );
}
