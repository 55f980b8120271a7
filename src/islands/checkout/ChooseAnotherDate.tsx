import { useEffect, useState, type FormEvent } from 'react';
import { londonDate } from '../../domain/schedule.ts';
import { FormField, INPUT_CLASS } from '../shared/FormField.tsx';
import { api, errorMessage } from '../shared/api.ts';
import { PENDING_BOOKING_KEY, serverBookingId, type PendingBooking } from './pending-booking.ts';

/** Said beside the field when the date typed is one the server lists as unavailable. */
export const DATE_STILL_TAKEN = 'This date is fully booked. Please select another date.';

/**
 * Checkout's answer to "the date was taken by a customer who paid first": the customer picks
 * another date right there (the dates with room, as GET /api/bookings/unavailable-dates lists
 * them) and the booking moves to it (POST /api/checkout-booking/date, the server judging room
 * under the same rule as a new booking). Everything else they typed is kept; `onChosen` gets the
 * booking with its new date, stored where the booking form keeps it, and checkout carries on.
 */
export function ChooseAnotherDate({ booking, onChosen }: { booking: PendingBooking; onChosen(next: PendingBooking): void }) {
  const [date, setDate] = useState('');
  const [unavailable, setUnavailable] = useState<readonly string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    void api<{ unavailableDates: string[] }>('/api/bookings/unavailable-dates')
      .then((answer) => setUnavailable(answer.unavailableDates))
      .catch(() => undefined);
  }, []);
  // The server refuses a day before today in the UK (validateMoveDate); UTC would be a day behind
  // between midnight and 1am in summer.
  const today = londonDate(new Date());

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (unavailable.includes(date) || date === booking.preferredDate) return setError(DATE_STILL_TAKEN);
    setBusy(true);
    try {
      const summary = await api<Partial<PendingBooking>>('/api/checkout-booking/date', {
        body: { bookingId: serverBookingId(booking), checkoutToken: booking.checkoutToken, date },
      });
      const next = { ...booking, preferredDate: summary.preferredDate ?? date };
      try {
        localStorage.setItem(PENDING_BOOKING_KEY, JSON.stringify(next));
      } catch {
        /* storage unavailable: this visit still pays */
      }
      onChosen(next);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} className="mt-4 space-y-3" aria-label="Choose another date">
      <FormField form="checkout" name="new-date" label="Another date" error={error ?? undefined} className="sm:w-72">
        {(control) => (
          <input
            {...control}
            type="date"
            min={today}
            value={date}
            required
            onChange={(event) => {
              setDate(event.target.value);
              setError(null);
            }}
            className={INPUT_CLASS}
          />
        )}
      </FormField>
      <button type="submit" className="btn-primary" disabled={busy || !date}>
        {busy ? 'Moving your booking…' : 'Move my booking and pay'}
      </button>
    </form>
  );
}
