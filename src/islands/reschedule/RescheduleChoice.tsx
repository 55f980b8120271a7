import { useEffect, useState } from 'react';
import { BUSINESS } from '../../content/business.ts';
import { api, ApiError, errorMessage } from '../shared/api.ts';
// The answer's shape, typed once on the server (type-only: nothing of the server reaches the page).
import type { RescheduleChoice as Choice } from '../../server/services/schedule/reschedule-links.ts';

// The customer's choice after a rain day (GET/POST /api/reschedule/{token}): the days that still
// have room, one tap each. A day that filled meanwhile is said plainly and the fresh list shown;
// the link works once.

/** 'Saturday 28 November 2026': a customer picks a day by its weekday as much as its date. */
const WEEKDAY_DATE = new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const dayName = (date: string) => WEEKDAY_DATE.format(new Date(`${date}T00:00:00Z`));

type State =
  | { kind: 'loading' }
  | { kind: 'missing' }
  | { kind: 'failed'; message: string }
  | { kind: 'ready'; token: string; choice: Choice; notice: string | null; busy: string | null }
  | { kind: 'moved'; date: string; bookingId: number };

/** Every dead end of this page says how to reach a person instead. */
function CallUs() {
  return (
    <p className="mt-3">
      To change the day with us, call{' '}
      <a className="font-semibold underline underline-offset-4" href={BUSINESS.phoneHref}>
        {BUSINESS.phone}
      </a>{' '}
      or e-mail{' '}
      <a className="font-semibold underline underline-offset-4" href={BUSINESS.emailHref}>
        {BUSINESS.email}
      </a>
      .
    </p>
  );
}

export default function RescheduleChoice() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  // Try again after a failure asks for the days afresh (a dropped connection need not end here).
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const token = window.location.hash.replace(/^#/, '').trim();
    if (!token) return setState({ kind: 'missing' });
    const controller = new AbortController();
    api<Choice>(`/api/reschedule/${encodeURIComponent(token)}`, { signal: controller.signal })
      .then((choice) => setState({ kind: 'ready', token, choice, notice: null, busy: null }))
      .catch((error) => {
        if (!controller.signal.aborted) setState({ kind: 'failed', message: errorMessage(error) });
      });
    return () => controller.abort();
  }, [attempt]);

  if (state.kind === 'loading') return <p role="status">Loading your days...</p>;
  if (state.kind === 'missing')
    return (
      <div>
        <p role="alert">This page needs the link from your e-mail. Please open it from there, or call us.</p>
        <CallUs />
      </div>
    );
  if (state.kind === 'failed')
    return (
      <div>
        <p role="alert" className="rounded-xl bg-danger-50 p-4 text-danger-600">
          {state.message}
        </p>
        <button
          type="button"
          className="btn-secondary mt-4"
          onClick={() => {
            setState({ kind: 'loading' });
            setAttempt((n) => n + 1);
          }}
        >
          Try again
        </button>
        <CallUs />
      </div>
    );
  if (state.kind === 'moved')
    return (
      <div role="status" className="rounded-2xl bg-accent-50 p-5 text-accent-800">
        <h2 className="text-2xl">Your new day: {dayName(state.date)}</h2>
        <p className="mt-2">Booking #{state.bookingId} has moved. We have e-mailed you an updated calendar invite.</p>
      </div>
    );

  const { token, choice, notice, busy } = state;
  const choose = async (date: string) => {
    setState({ ...state, busy: date, notice: null });
    try {
      await api(`/api/reschedule/${encodeURIComponent(token)}`, { method: 'POST', body: { date } });
      setState({ kind: 'moved', date, bookingId: choice.bookingId });
    } catch (error) {
      // A day that filled meanwhile: the answer carries the days with room now.
      const fresh = error instanceof ApiError && error.status === 409 && Array.isArray(error.extra.dates) ? (error.extra.dates as string[]) : undefined;
      if (fresh) setState({ ...state, choice: { ...choice, dates: fresh }, notice: errorMessage(error), busy: null });
      else setState({ kind: 'failed', message: errorMessage(error) });
    }
  };

  return (
    <div>
      <p className="text-lg">
        {choice.businessName}, booking #{choice.bookingId}: now on <strong>{dayName(choice.currentDate)}</strong>.
      </p>
      {notice && (
        <p role="alert" className="mt-4 rounded-xl border border-warning-700 bg-warning-50 p-4 text-warning-700">
          {notice}
        </p>
      )}
      {choice.dates.length === 0 ? (
        <>
          <p className="mt-4">No other day has room just now. Please call us and we will find one with you.</p>
          <CallUs />
        </>
      ) : (
        <>
          <h2 className="mt-6 text-xl" id="reschedule-days">
            Days with room
          </h2>
          <ul className="mt-3 grid gap-2 sm:grid-cols-2" aria-labelledby="reschedule-days">
            {choice.dates.map((date) => (
              <li key={date}>
                <button type="button" className="btn-secondary min-h-12 w-full justify-start text-left" disabled={busy !== null} onClick={() => void choose(date)}>
                  {busy === date ? `Moving to ${dayName(date)}...` : `Move to ${dayName(date)}`}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
