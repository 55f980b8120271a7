import { useEffect, useRef, useState, type FormEvent } from 'react';
import { adminApi as api } from '../admin-api.ts';
import { useLoad } from '../operations/use-load.ts';
import { useCanChange } from '../staff-user.ts';
import { errorMessage } from '../../shared/api.ts';
import { showToast } from '../../shared/toast-store.ts';
import { INPUT_CLASS, LABEL_CLASS } from '../../shared/FormField.tsx';
import { formatLongDate } from '../../../domain/format.ts';
import type { CrewBoard } from '../../../server/services/crew/crew-board.ts';
import { paymentLabel, stepLabel, type ScheduleBooking, type ScheduleDay } from './schedule-types.ts';

/** An opened day: its bookings (each movable), its crews' routes, and its capacity or closure. */
export function DayPanel({ day, onChanged, onClose }: { day: ScheduleDay; onChanged: () => void; onClose: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const canChange = useCanChange();
  // A failed answer says so with Try again, rather than reading as a day without crew stops.
  const [crew, reloadCrew] = useLoad<CrewBoard>(`/api/admin/crew/day?date=${day.date}`);

  useEffect(() => {
    heading.current?.focus();
  }, [day.date]);

  return (
    <section aria-labelledby="schedule-day-heading" className="mt-6 rounded-2xl border border-concrete-200 bg-white p-4 sm:p-6">
      <div className="flex items-start justify-between gap-3">
        <h3 id="schedule-day-heading" ref={heading} tabIndex={-1} className="text-xl">
          {formatLongDate(day.date)}
        </h3>
        {/* Closes this panel, not the day: closing a day for bookings is its capacity of 0 below. */}
        <button type="button" className="btn-secondary shrink-0" onClick={onClose}>
          <span>
            Close<span className="sr-only"> the details of {formatLongDate(day.date)}</span>
          </span>
        </button>
      </div>
      <p className="mt-1 text-concrete-700">
        {day.closed ? `Closed${day.reason ? `: ${day.reason}` : ''}.` : `${day.booked} of ${day.capacity} patches booked, ${day.paid} paid.`}
      </p>

      <h4 className="mt-5 text-lg">Bookings</h4>
      {day.bookings.length === 0 ? (
        <p className="mt-2 text-concrete-600">No bookings on this day.</p>
      ) : (
        <ul className="mt-2 space-y-3">
          {day.bookings.map((booking) => (
            <BookingRow
              key={booking.id}
              booking={booking}
              canChange={canChange}
              // A move can change the day's crew routes as well as its bookings: both are asked again.
              onMoved={() => {
                onChanged();
                reloadCrew();
              }}
            />
          ))}
        </ul>
      )}

      <h4 className="mt-5 text-lg">Crews</h4>
      {crew.state === 'loading' && (
        <p role="status" className="mt-2 text-concrete-600">
          Loading the crews...
        </p>
      )}
      {crew.state === 'error' && (
        <div role="alert" className="mt-2 text-danger-600">
          <p>Could not load the crews for this day.</p>
          <button type="button" className="btn-secondary mt-2" onClick={reloadCrew}>
            Try again
          </button>
        </div>
      )}
      {crew.state === 'ready' && <CrewRoutes crew={crew.data} />}

      {canChange && <CapacityForm day={day} onSaved={onChanged} />}
    </section>
  );
}

function CrewRoutes({ crew }: { crew: CrewBoard }) {
  const workerName = (id: number | null) => crew.workers.find((worker) => worker.id === id)?.name || 'every worker';
  if (crew.routes.length === 0) return <p className="mt-2 text-concrete-600">No crew stops scheduled (stops join the crews' day at step 3).</p>;
  return (
    <ul className="mt-2 space-y-1 text-concrete-700">
      {crew.routes.map((route) => (
        <li key={route.routeNumber}>
          Route {route.routeNumber}: {route.stops.map((stop) => `#${stop.bookingId}`).join(', ')} ({route.given === 'several' ? 'several workers' : workerName(route.workerId)})
        </li>
      ))}
    </ul>
  );
}

function BookingRow({ booking, canChange, onMoved }: { booking: ScheduleBooking; canChange: boolean; onMoved: () => void }) {
  const [date, setDate] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const unpaid = booking.paymentStatus !== 'paid';
  const inputId = `move-${booking.id}`;

  const move = async (event: FormEvent) => {
    event.preventDefault();
    if (!date) return;
    setBusy(true);
    setError(null);
    try {
      await api(`/api/admin/bookings/${booking.id}/reschedule`, { method: 'POST', body: { date } });
      showToast({ title: 'Booking Moved', description: `Booking #${booking.id} moved to ${formatLongDate(date)}. The customer has been e-mailed.`, variant: 'success' });
      onMoved();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <li className="rounded-xl bg-concrete-50 p-3">
      <p className="font-semibold text-ink">
        #{booking.id} {booking.businessName}
        {unpaid && (
          <span className="ml-2 inline-block rounded-full bg-warning-50 px-2 py-0.5 align-middle text-xs font-bold text-warning-700">{paymentLabel(booking)}</span>
        )}
      </p>
      <p className="text-sm text-concrete-700">
        {booking.quantity} patches · {booking.workType === 'night' ? 'Night' : 'Day'} work · {booking.region ?? 'Unknown area'} · {stepLabel(booking.step)}
        {unpaid ? '' : ' · Paid'}
      </p>
      {canChange && (
        <form className="mt-2 flex flex-wrap items-end gap-2" onSubmit={(event) => void move(event)}>
          <div>
            <label htmlFor={inputId} className="block text-sm font-semibold text-ink">
              Move #{booking.id} to
            </label>
            <input id={inputId} type="date" value={date} onChange={(event) => setDate(event.target.value)} className={`mt-1 ${INPUT_CLASS}`} required />
          </div>
          <button type="submit" className="btn-secondary" disabled={busy || !date}>
            {busy ? 'Moving...' : 'Move'}
          </button>
          {error && (
            <p role="alert" className="w-full text-sm text-danger-600">
              {error}
            </p>
          )}
        </form>
      )}
    </li>
  );
}

function CapacityForm({ day, onSaved }: { day: ScheduleDay; onSaved: () => void }) {
  const [capacity, setCapacity] = useState(String(day.capacity));
  const [reason, setReason] = useState(day.reason ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api(`/api/admin/schedule/days/${day.date}`, { method: 'PUT', body: { capacity: Number(capacity), reason: reason || null } });
      showToast({ title: 'Day Saved', description: Number(capacity) === 0 ? `${formatLongDate(day.date)} is closed.` : `${formatLongDate(day.date)} takes ${capacity} patches.`, variant: 'success' });
      onSaved();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="mt-6 border-t border-concrete-200 pt-4" onSubmit={(event) => void save(event)}>
      <h4 className="text-lg">Capacity</h4>
      <p className="mt-1 text-sm text-concrete-600">Fewer crews or a holiday: set the day's patches. 0 closes the day.</p>
      <div className="mt-3 grid gap-3 sm:grid-cols-[10rem_1fr_auto] sm:items-end">
        <div>
          <label htmlFor="day-capacity" className={LABEL_CLASS}>
            Patches
          </label>
          <input id="day-capacity" type="number" inputMode="numeric" min={0} max={1000} value={capacity} onChange={(event) => setCapacity(event.target.value)} className={`mt-2 ${INPUT_CLASS}`} required />
        </div>
        <div>
          <label htmlFor="day-reason" className={LABEL_CLASS}>
            Reason (optional)
          </label>
          <input id="day-reason" type="text" maxLength={200} value={reason} onChange={(event) => setReason(event.target.value)} className={`mt-2 ${INPUT_CLASS}`} />
        </div>
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? 'Saving...' : 'Save day'}
        </button>
      </div>
      {error && (
        <p role="alert" className="mt-2 text-sm text-danger-600">
          {error}
        </p>
      )}
    </form>
  );
}
