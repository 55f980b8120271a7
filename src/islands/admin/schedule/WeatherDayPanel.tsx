import { useRef, useState, type FormEvent } from 'react';
import { adminApi as api } from '../admin-api.ts';
import { useCanChange } from '../staff-user.ts';
import { errorMessage } from '../../shared/api.ts';
import { showToast } from '../../shared/toast-store.ts';
import { INPUT_CLASS, LABEL_CLASS } from '../../shared/FormField.tsx';
import { formatLongDate } from '../../../domain/format.ts';
import type { ScheduleDay, WeatherPlan } from './schedule-types.ts';

/**
 * The rain day flow: pick the date and the regions it rains in, see where each booking would go,
 * change a day where staff know better, confirm. The confirmation carries one Idempotency-Key per
 * preview, so a double click or a retry moves nothing twice.
 */
export function WeatherDayPanel({ onConfirmed }: { onConfirmed: () => void }) {
  const canChange = useCanChange();
  const [date, setDate] = useState('');
  const [regions, setRegions] = useState<string[] | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [plan, setPlan] = useState<WeatherPlan | null>(null);
  const [targets, setTargets] = useState<Record<number, string>>({});
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const picked = useRef('');

  if (!canChange) return null;

  const pickDate = async (value: string) => {
    picked.current = value;
    setDate(value);
    setPlan(null);
    setChosen([]);
    setRegions(null);
    setError(null);
    if (!value) return;
    try {
      const answer = await api<{ days: ScheduleDay[] }>(`/api/admin/schedule?from=${value}&to=${value}`);
      // A date changed again meanwhile: its own answer fills the regions, not this one.
      if (picked.current !== value) return;
      const found = new Set(answer.days[0]?.bookings.map((booking) => booking.region ?? '').filter(Boolean));
      setRegions([...found].sort());
    } catch (failure) {
      if (picked.current === value) setError(errorMessage(failure));
    }
  };

  const preview = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await api<WeatherPlan>('/api/admin/weather-days/preview', { method: 'POST', body: { date, regions: chosen } });
      setPlan(answer);
      setTargets(Object.fromEntries(answer.moves.map((move) => [move.bookingId, move.to])));
      setKey(crypto.randomUUID());
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  const confirm = async () => {
    if (!plan) return;
    setBusy(true);
    setError(null);
    try {
      const moves = plan.moves.map((move) => ({ bookingId: move.bookingId, to: targets[move.bookingId] ?? move.to }));
      const done = await api<WeatherPlan>('/api/admin/weather-days', {
        method: 'POST',
        body: { date, regions: chosen, moves },
        headers: { 'Idempotency-Key': key },
      });
      showToast({
        title: 'Rain Day Confirmed',
        description: `${done.moves.length} booking(s) moved from ${formatLongDate(date)}; each customer has been e-mailed.${done.unplaced.length ? ` ${done.unplaced.length} left for you to place.` : ''}`,
        variant: 'success',
      });
      setPlan(done);
      onConfirmed();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  const confirmed = plan?.id !== undefined;

  return (
    <section aria-labelledby="rain-day-heading" className="mt-8 rounded-2xl border border-concrete-200 bg-white p-4 sm:p-6">
      <h3 id="rain-day-heading" className="text-xl">
        Rain day
      </h3>
      <p className="mt-1 text-sm text-concrete-600">
        Moves the day's bookings to the earliest later days with room (paid first, a region kept together), closes the day for those regions and e-mails each customer once.
      </p>
      <form className="mt-4 space-y-4" onSubmit={(event) => void preview(event)}>
        <div className="sm:w-64">
          <label htmlFor="rain-date" className={LABEL_CLASS}>
            Rained-off day
          </label>
          <input id="rain-date" type="date" value={date} onChange={(event) => void pickDate(event.target.value)} className={`mt-2 ${INPUT_CLASS}`} required />
        </div>
        {regions && regions.length > 0 && (
          <fieldset>
            <legend className={LABEL_CLASS}>Regions it rains in (none ticked: every region)</legend>
            <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2">
              {regions.map((region) => (
                <label key={region} className="flex min-h-11 items-center gap-2">
                  <input
                    type="checkbox"
                    className="size-5"
                    checked={chosen.includes(region)}
                    onChange={(event) => {
                      setPlan(null);
                      setChosen(event.target.checked ? [...chosen, region].sort() : chosen.filter((item) => item !== region));
                    }}
                  />
                  {region}
                </label>
              ))}
            </div>
          </fieldset>
        )}
        {regions && regions.length === 0 && <p className="text-concrete-600">No bookings on that day.</p>}
        <button type="submit" className="btn-secondary" disabled={busy || !date}>
          Preview moves
        </button>
      </form>

      {error && (
        <p role="alert" className="mt-4 rounded-xl bg-danger-50 p-4 text-danger-600">
          {error}
        </p>
      )}

      {plan && (
        <div className="mt-5" aria-live="polite">
          <h4 className="text-lg">{confirmed ? 'Moved' : 'Proposed moves'}</h4>
          {plan.moves.length === 0 ? (
            <p className="mt-2 text-concrete-600">No bookings to move.</p>
          ) : (
            <ul className="mt-2 space-y-2">
              {plan.moves.map((move) => (
                <li key={move.bookingId} className="flex flex-wrap items-end justify-between gap-2 rounded-xl bg-concrete-50 p-3">
                  <span>
                    <span className="font-semibold text-ink">
                      #{move.bookingId} {move.businessName}
                    </span>
                    <span className="block text-sm text-concrete-700">{move.region ?? 'Unknown area'}</span>
                  </span>
                  {confirmed ? (
                    <span className="text-concrete-700">{formatLongDate(move.to)}</span>
                  ) : (
                    <span>
                      <label htmlFor={`rain-move-${move.bookingId}`} className="block text-sm font-semibold text-ink">
                        New day for #{move.bookingId}
                      </label>
                      <input
                        id={`rain-move-${move.bookingId}`}
                        type="date"
                        min={date}
                        value={targets[move.bookingId] ?? move.to}
                        onChange={(event) => setTargets({ ...targets, [move.bookingId]: event.target.value })}
                        className={`mt-1 ${INPUT_CLASS}`}
                      />
                    </span>
                  )}
                </li>
              ))}
            </ul>
          )}
          {plan.unplaced.length > 0 && (
            <div className="mt-4 rounded-xl border border-warning-700 bg-warning-50 p-4">
              <h5 className="font-semibold text-warning-700">Not placed: move these by hand</h5>
              <ul className="mt-1 list-disc pl-5">
                {plan.unplaced.map((item) => (
                  <li key={item.bookingId}>
                    #{item.bookingId}: {item.reason}
                  </li>
                ))}
              </ul>
            </div>
          )}
          {!confirmed && plan.moves.length > 0 && (
            <button type="button" className="btn-primary mt-4" disabled={busy} onClick={() => void confirm()}>
              {busy ? 'Confirming...' : `Confirm rain day: move ${plan.moves.length} booking(s)`}
            </button>
          )}
        </div>
      )}
    </section>
  );
}
