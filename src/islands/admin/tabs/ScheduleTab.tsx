import { useCallback, useEffect, useRef, useState } from 'react';
import { adminApi as api } from '../admin-api.ts';
import { errorMessage } from '../../shared/api.ts';
import { formatLongDate } from '../../../domain/format.ts';
import { londonDate } from '../../../domain/schedule.ts';
import { DayPanel } from '../schedule/DayPanel.tsx';
import { WeatherDayPanel } from '../schedule/WeatherDayPanel.tsx';
import { DaySummary } from '../schedule/DaySummary.tsx';
import { leadingBlanks, monthRange, shiftMonth, type ScheduleDay } from '../schedule/schedule-types.ts';

// The Schedule tab (api.md "Schedule and weather days"): a month of days against their capacity,
// as a calendar grid on a wide screen and an agenda list on a phone; a day opens below with its
// bookings, crews, capacity and moves; the rain day flow sits under the calendar.

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

const monthName = (month: string) =>
  new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}-01T00:00:00Z`));

/** Days the agenda lists: those with bookings, closed, or with their own capacity. */
const isWorthListing = (day: ScheduleDay, defaultCapacity: number) =>
  day.bookings.length > 0 || day.closed || (day.closedRegions?.length ?? 0) > 0 || day.capacity !== defaultCapacity;

export default function ScheduleTab() {
  const [month, setMonth] = useState(() => londonDate(new Date()).slice(0, 7));
  const [days, setDays] = useState<ScheduleDay[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);

  // Only the latest request's answer is shown: paging through months faster than the answers
  // come must not leave one month's days under another month's name.
  const latest = useRef(0);
  const load = useCallback(async () => {
    const { from, to } = monthRange(month);
    const request = ++latest.current;
    try {
      const answer = await api<{ days: ScheduleDay[] }>(`/api/admin/schedule?from=${from}&to=${to}`);
      if (request !== latest.current) return;
      setDays(answer.days);
      setError(null);
    } catch (failure) {
      if (request === latest.current) setError(errorMessage(failure));
    }
  }, [month]);

  useEffect(() => {
    setDays(null);
    setError(null);
    void load();
  }, [load]);

  // The most common capacity of the month stands for the default in the agenda's filter.
  const usual = days ? mode(days.map((day) => day.capacity)) : 0;
  const openDay = days?.find((day) => day.date === open) ?? null;
  const listed = days?.filter((day) => isWorthListing(day, usual)) ?? [];

  return (
    <div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-2xl" id="schedule-month" aria-live="polite">
          {monthName(month)}
        </h2>
        <div className="flex gap-2">
          <button type="button" className="btn-secondary" onClick={() => setMonth(shiftMonth(month, -1))}>
            <span>
              <span aria-hidden="true">‹ </span>Previous<span className="sr-only sm:not-sr-only"> month</span>
            </span>
          </button>
          <button type="button" className="btn-secondary" onClick={() => setMonth(shiftMonth(month, 1))}>
            <span>
              Next<span className="sr-only sm:not-sr-only"> month</span>
              <span aria-hidden="true"> ›</span>
            </span>
          </button>
        </div>
      </div>

      {error && (
        <div className="mt-4 flex flex-wrap items-center justify-between gap-3 rounded-xl bg-danger-50 p-4">
          <p role="alert" className="text-danger-600">
            {error}
          </p>
          <button type="button" className="btn-secondary" onClick={() => void load()}>
            Try again
          </button>
        </div>
      )}
      {!days && !error && (
        <p className="mt-4 text-concrete-600" role="status">
          Loading the schedule...
        </p>
      )}

      {days && (
        <>
          {/* Wide screens: the month as a calendar grid. */}
          <div className="mt-4 hidden lg:block" data-testid="schedule-grid">
            <div className="grid grid-cols-7 gap-2" role="list" aria-labelledby="schedule-month">
              {WEEKDAYS.map((name) => (
                <div key={name} aria-hidden="true" className="text-center text-sm font-semibold text-concrete-600">
                  {name}
                </div>
              ))}
              {Array.from({ length: leadingBlanks(days[0]!.date) }, (_, index) => (
                <div key={`blank-${index}`} aria-hidden="true" />
              ))}
              {days.map((day) => (
                <div role="listitem" key={day.date}>
                  <DaySummary day={day} compact selected={open === day.date} onOpen={() => setOpen(day.date)} />
                </div>
              ))}
            </div>
          </div>
          {/* Phones: an agenda of the days that have something on them. */}
          <div className="mt-4 lg:hidden" data-testid="schedule-agenda">
            {listed.length === 0 ? (
              <p className="text-concrete-600">Nothing booked or closed this month.</p>
            ) : (
              <ul className="space-y-2" aria-labelledby="schedule-month">
                {listed.map((day) => (
                  <li key={day.date}>
                    <DaySummary day={day} selected={open === day.date} onOpen={() => setOpen(day.date)} />
                  </li>
                ))}
              </ul>
            )}
          </div>
        </>
      )}

      {openDay && (
        <DayPanel
          key={openDay.date}
          day={openDay}
          onChanged={() => void load()}
          onClose={() => setOpen(null)}
        />
      )}

      <WeatherDayPanel onConfirmed={() => void load()} />
      <p className="sr-only" aria-live="polite">
        {openDay ? `${formatLongDate(openDay.date)} opened below the calendar.` : ''}
      </p>
    </div>
  );
}

function mode(values: number[]): number {
  const counts = new Map<number, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
}
