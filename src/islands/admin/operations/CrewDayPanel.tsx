import { useEffect, useState } from 'react';
import { CREW_STATUS_LABEL } from '../../../domain/crew.ts';
import { addDays, formatLongDate } from '../../../domain/format.ts';
import { londonDate } from '../../../domain/schedule.ts';
import { ApiError } from '../../shared/api.ts';
import { showToast } from '../../shared/toast-store.ts';
import { SegmentedControl } from '../../shared/SegmentedControl.tsx';
import { adminApi as api } from '../admin-api.ts';
import type { CrewBoard, CrewBoardStop, CrewBoardWorker } from '../../../server/services/crew/crew-board.ts';
import { useLoad } from './use-load.ts';
import { useCanChange } from '../staff-user.ts';

// The Workers tab's crew day (api.md "Crew day"): who has which route, where each stop stands
// (refreshed every 30 seconds and on Refresh, without reloading the page), and each worker's link
// to their day, which staff can send again or revoke.

const POLL_MS = 30_000;
const LONDON_TIME = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit' });
const LONDON_DAY_TIME = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', weekday: 'short', hour: '2-digit', minute: '2-digit' });

const STATUS_CLASS: Record<string, string> = {
  planned: 'bg-concrete-50 text-concrete-700',
  on_the_way: 'bg-warning-50 text-warning-700',
  started: 'bg-accent-50 text-accent-800',
  done: 'bg-accent-600 text-white',
};

export function CrewDayPanel() {
  const today = londonDate(new Date());
  const [date, setDate] = useState(today);
  const canChange = useCanChange();
  const [board, reload] = useLoad<CrewBoard>(`/api/admin/crew/day?date=${date}`);
  useEffect(() => {
    const timer = window.setInterval(reload, POLL_MS);
    return () => window.clearInterval(timer);
  }, [reload]);

  const days = [
    { value: today, label: 'Today' },
    { value: addDays(today, 1), label: 'Tomorrow' },
  ];
  const activeWorkers = board.state === 'ready' ? board.data.workers.filter((worker) => worker.active) : [];

  const assign = async (bookingIds: number[], workerId: number | null) => {
    try {
      await api('/api/admin/crew/assignments', { method: 'PUT', body: { date, bookingIds, workerId } });
      showToast({ title: 'Route Assigned', description: workerId ? 'Only this worker gets it now.' : 'Every active worker gets it.', variant: 'success' });
    } catch (error) {
      showToast({ title: 'Assignment Failed', description: error instanceof ApiError && error.status < 500 ? error.message : 'Please try again.', variant: 'destructive' });
    }
    reload();
  };

  return (
    <section aria-labelledby="crew-day-heading" className="card p-5" data-testid="crew-day-panel">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id="crew-day-heading" className="text-lg">
          Crew day
        </h3>
        <div className="flex gap-2">
          <SegmentedControl label="Day" options={days} selected={days.find((day) => day.value === date) ?? days[0]!} onSelect={(day) => setDate(day.value)} />
          <button type="button" className="btn-secondary min-h-11 px-4 py-2 text-sm" onClick={reload}>
            Refresh
          </button>
        </div>
      </div>
      <p className="mt-1 text-sm text-concrete-700">
        {formatLongDate(date)}. Stop status updates every 30 seconds. A route given to nobody goes to every active worker.
      </p>

      {board.state === 'loading' && <p role="status" className="mt-4 text-concrete-600">Loading the crew day…</p>}
      {board.state === 'error' && (
        <div role="alert" className="mt-4 text-danger-600">
          <p>Could not load the crew day.</p>
          <button type="button" className="btn-secondary mt-3" onClick={reload}>
            Try again
          </button>
        </div>
      )}
      {board.state === 'ready' && (
        <div data-date={board.data.date}>
          {board.data.routes.length === 0 ? (
            <p className="mt-4 rounded-xl border border-dashed border-concrete-300 p-5 text-center text-concrete-700">No installations on this day</p>
          ) : (
            <ol className="mt-4 space-y-4" aria-label="Crew routes">
              {board.data.routes.map((route) => {
                const selectId = `crew-route-${route.routeNumber}`;
                return (
                  <li key={route.routeNumber} className="rounded-xl border border-concrete-200 p-4">
                    <div className="flex flex-wrap items-end justify-between gap-3">
                      <h4 className="font-semibold">
                        Route {route.routeNumber}{' '}
                        <span className="font-normal text-concrete-700">
                          ({route.stops.length} stop{route.stops.length === 1 ? '' : 's'})
                        </span>
                      </h4>
                      <div className="w-full sm:w-auto">
                        <label htmlFor={selectId} className="block text-sm font-semibold">
                          Crew for route {route.routeNumber}
                        </label>
                        <select
                          id={selectId}
                          className="mt-1 min-h-11 w-full rounded-lg border border-concrete-300 bg-white px-3 text-base sm:w-56"
                          value={route.workerId ?? ''}
                          disabled={!canChange}
                          onChange={(event) =>
                            void assign(
                              route.stops.map((stop) => stop.bookingId),
                              event.target.value ? Number(event.target.value) : null,
                            )
                          }
                        >
                          <option value="">Every active worker</option>
                          {activeWorkers.map((worker) => (
                            <option key={worker.id} value={worker.id}>
                              {worker.name}
                            </option>
                          ))}
                        </select>
                      </div>
                    </div>
                    <ul className="mt-3 divide-y divide-concrete-100">
                      {route.stops.map((stop) => (
                        <CrewStopRow key={stop.bookingId} stop={stop} />
                      ))}
                    </ul>
                  </li>
                );
              })}
            </ol>
          )}
          <h4 className="mt-6 font-semibold">Crew links</h4>
          <ul className="mt-2 divide-y divide-concrete-100" aria-label="Crew links">
            {board.data.workers
              .filter((worker) => worker.active || worker.link)
              .map((worker) => (
                <CrewLinkRow key={worker.id} worker={worker} date={date} hasRoutes={board.data.routes.length > 0} onChange={reload} />
              ))}
          </ul>
        </div>
      )}
    </section>
  );
}

/** A stop's status with its time and the worker, as the crew reported it. */
export function CrewStopRow({ stop }: { stop: CrewBoardStop }) {
  const status = stop.crew?.status ?? 'planned';
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm" data-testid="crew-board-stop">
      <div className="min-w-0">
        <p className="font-semibold">
          {stop.customerName} <span className="font-normal text-concrete-700">#{stop.bookingId}</span>
        </p>
        <p className="break-words text-concrete-700">
          {stop.workType === 'night' ? 'Night' : 'Day'} work{stop.address ? ` · ${stop.address}` : ''}
        </p>
      </div>
      <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_CLASS[status]}`}>
        {CREW_STATUS_LABEL[status]}
        {stop.crew?.at ? ` ${LONDON_TIME.format(new Date(stop.crew.at))}` : ''}
        {stop.crew ? ` · ${stop.crew.workerName}` : ''}
      </span>
    </li>
  );
}

function CrewLinkRow({ worker, date, hasRoutes, onChange }: { worker: CrewBoardWorker; date: string; hasRoutes: boolean; onChange: () => void }) {
  const [busy, setBusy] = useState(false);
  const state = worker.link?.state;
  const linkText =
    state === 'live'
      ? `Link works until ${LONDON_DAY_TIME.format(new Date(worker.link!.expiresAt))}`
      : state === 'revoked'
        ? 'Link revoked'
        : state === 'expired'
          ? 'Link expired'
          : 'No link sent for this day';
  const act = async (action: 'resend' | 'revoke') => {
    setBusy(true);
    try {
      await api(`/api/admin/crew/workers/${worker.id}/${action}`, { body: { date } });
      showToast({
        title: action === 'resend' ? 'Link Sent' : 'Link Revoked',
        description: action === 'resend' ? `${worker.email} has a new link; the old one no longer works.` : `${worker.name}'s link no longer opens the day.`,
        variant: 'success',
      });
    } catch (error) {
      showToast({ title: 'Update Failed', description: error instanceof ApiError && error.status < 500 ? error.message : 'Please try again.', variant: 'destructive' });
    } finally {
      setBusy(false);
      onChange();
    }
  };
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm" data-testid="crew-link-row">
      <div className="min-w-0">
        <p className="font-semibold">{worker.name}</p>
        <p className="text-concrete-700">{linkText}</p>
      </div>
      <div className="flex gap-1">
        <button data-change type="button" className="min-h-11 rounded-lg px-3 font-semibold text-ink underline disabled:opacity-50" disabled={busy || !worker.active || !hasRoutes} onClick={() => void act('resend')}>
          {state ? 'Resend link' : 'Send link'}
          <span className="sr-only"> to {worker.name}</span>
        </button>
        {state === 'live' && (
          <button data-change type="button" className="min-h-11 rounded-lg px-3 font-semibold text-danger-600 underline" disabled={busy} onClick={() => void act('revoke')}>
            Revoke<span className="sr-only"> {worker.name}&rsquo;s link</span>
          </button>
        )}
      </div>
    </li>
  );
}
