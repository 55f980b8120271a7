import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { adminApi as api } from '../admin-api.ts';
import { showToast } from '../../shared/toast-store.ts';
import { INPUT_CLASS, LABEL_CLASS } from '../../shared/FormField.tsx';
import type { BlockedDateJson } from '../../../server/services/bookings/blocked-dates.ts';
import { formatDay, londonTodayIso } from './format.ts';
import { errorMessage } from '../../shared/api.ts';


/**
 * Availability: dates closed to new bookings. Blocking never cancels a booking already on the
 * date; the panel says how many stay booked so the admin can contact them if needed.
 */
export function AvailabilityPanel() {
  const [blocked, setBlocked] = useState<BlockedDateJson[] | null>(null);
  const [loadError, setLoadError] = useState('');
  const [date, setDate] = useState('');
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState('');

  const load = useCallback(() => {
    api<BlockedDateJson[]>('/api/admin/blocked-dates')
      .then((rows) => {
        setBlocked(rows);
        setLoadError('');
      })
      .catch((error) => setLoadError(errorMessage(error)));
  }, []);
  useEffect(load, [load]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setNotice('');
    try {
      const result = await api<BlockedDateJson>('/api/admin/blocked-dates', { body: { date, reason: reason || null } });
      const count = result.bookings.length;
      setNotice(
        count > 0
          ? `${formatDay(result.date)} is blocked. ${count === 1 ? '1 booking already on this date stays booked.' : `${count} bookings already on this date stay booked.`}`
          : `${formatDay(result.date)} is blocked for new bookings.`,
      );
      showToast({ title: 'Date Blocked', description: `${formatDay(result.date)} is closed to new bookings.`, variant: 'success' });
      setDate('');
      setReason('');
      load();
    } catch (error) {
      showToast({ title: 'Block Failed', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  const unblock = async (row: BlockedDateJson) => {
    try {
      await api(`/api/admin/blocked-dates/${row.date}`, { method: 'DELETE' });
      showToast({ title: 'Date Unblocked', description: `${formatDay(row.date)} is open for bookings again.`, variant: 'success' });
      setNotice('');
      load();
    } catch (error) {
      showToast({ title: 'Unblock Failed', description: errorMessage(error), variant: 'destructive' });
    }
  };

  return (
    <section aria-labelledby="availability-heading" className="card mt-10 p-5 sm:p-6">
      <h2 id="availability-heading" className="text-xl">
        Availability
      </h2>
      <p className="mt-1 text-sm text-concrete-700">
        Block a date to stop new bookings on it. Bookings already on a blocked date are kept.
      </p>

      <form data-change onSubmit={(event) => void submit(event)} className="mt-5 grid gap-4 sm:grid-cols-[12rem_1fr_auto] sm:items-end">
        <div>
          <label htmlFor="block-date" className={LABEL_CLASS}>
            Date to block
          </label>
          <input
            id="block-date"
            type="date"
            required
            min={londonTodayIso()}
            value={date}
            onChange={(event) => setDate(event.target.value)}
            className={`mt-2 ${INPUT_CLASS}`}
          />
        </div>
        <div>
          <label htmlFor="block-reason" className={LABEL_CLASS}>
            Reason <span className="font-normal text-concrete-600">(optional)</span>
          </label>
          <input
            id="block-reason"
            type="text"
            maxLength={200}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            className={`mt-2 ${INPUT_CLASS}`}
          />
        </div>
        <button type="submit" className="btn-primary" disabled={busy || date === ''}>
          {busy ? 'Blocking…' : 'Block date'}
        </button>
      </form>
      <p role="status" className="mt-3 text-sm font-semibold text-ink empty:hidden" data-testid="block-notice">
        {notice}
      </p>

      <h3 className="mt-6 text-base font-semibold">Blocked dates</h3>
      {loadError && <p className="mt-2 text-sm text-danger-600">Could not load blocked dates: {loadError}</p>}
      {blocked === null && !loadError && <p className="mt-2 text-sm text-concrete-600">Loading…</p>}
      {blocked?.length === 0 && <p className="mt-2 text-sm text-concrete-600">No dates are blocked.</p>}
      {blocked && blocked.length > 0 && (
        <ul className="mt-2 divide-y divide-concrete-100" data-testid="blocked-dates">
          {blocked.map((row) => (
            <li key={row.date} className="flex flex-wrap items-start justify-between gap-3 py-3">
              <div>
                <div className="font-semibold">{formatDay(row.date)}</div>
                {row.reason && <div className="text-sm text-concrete-700">{row.reason}</div>}
                {row.bookings.length > 0 && (
                  <div className="mt-1 text-sm text-concrete-700">
                    Still booked:{' '}
                    {row.bookings.map((booking) => `#${booking.id} ${booking.name} (${booking.quantity} patches)`).join(', ')}
                  </div>
                )}
              </div>
              <button data-change
                type="button"
                className="btn-secondary min-h-11 px-3 py-1 text-sm"
                aria-label={`Unblock ${formatDay(row.date)}`}
                onClick={() => void unblock(row)}
              >
                Unblock
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
