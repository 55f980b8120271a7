import { useEffect, useState } from 'react';
import { CREW_STATUS_LABEL, arrivedLater } from '../../../domain/crew.ts';
import { addDays, formatLongDate } from '../../../domain/format.ts';
import { londonDate } from '../../../domain/schedule.ts';
import { ApiError } from '../../shared/api.ts';
import { PhotoProof } from '../projects/PhotoProof.tsx';
import { assignStops, RouteAssign } from './RouteAssign.tsx';
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

  const assign = (bookingIds: number[], workerId: number | null) => void assignStops(date, bookingIds, workerId, reload);

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
        {formatLongDate(date)}. Stop status updates every 30 seconds. A route given to nobody goes to every active worker; a stop that
        joins a route given to someone waits for you to assign it.
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
                return (
                  <li key={route.routeNumber} className="rounded-xl border border-concrete-200 p-4" data-testid="crew-route">
                    <div className="flex flex-wrap items-start justify-between gap-3">
                      <h4 className="font-semibold">
                        Route {route.routeNumber}{' '}
                        <span className="font-normal text-concrete-700">
                          ({route.stops.length} stop{route.stops.length === 1 ? '' : 's'})
                        </span>
                      </h4>
                      <fieldset disabled={!canChange} className="m-0 min-w-0 border-0 p-0">
                        <RouteAssign idPrefix="crew" routeNumber={route.routeNumber} workerId={route.workerId} stops={route.stops} workers={activeWorkers} onAssign={assign} />
                      </fieldset>
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

/** A stop's status with its time and the worker, as the crew reported it, and its photos as proof. */
export function CrewStopRow({ stop }: { stop: CrewBoardStop }) {
  const status = stop.crew?.status ?? 'planned';
  return (
    <li className="py-2 text-sm" data-testid="crew-board-stop">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0">
          <p className="font-semibold">
            {stop.customerName} <span className="font-normal text-concrete-700">#{stop.bookingId}</span>
          </p>
          <p className="break-words text-concrete-700">
            {stop.workType === 'night' ? 'Night' : 'Day'} work{stop.address ? ` · ${stop.address}` : ''}
          </p>
        </div>
        <div className="flex flex-wrap gap-1">
          {stop.waiting && <span className="rounded-full bg-warning-50 px-2.5 py-0.5 text-xs font-semibold text-warning-700">Waiting to be assigned</span>}
          {!stop.scheduled && (
            <span className="rounded-full bg-concrete-50 px-2.5 py-0.5 text-xs font-semibold text-concrete-700" title="Not at step 3 with this installation day: the crew does not see it">
              Not scheduled
            </span>
          )}
          <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_CLASS[status]}`}>
            {CREW_STATUS_LABEL[status]}
            {stop.crew?.at ? ` ${LONDON_TIME.format(new Date(stop.crew.at))}` : ''}
            {/* A tap that waited for signal: when it was tapped, and when it reached the office. */}
            {stop.crew?.receivedAt && arrivedLater(stop.crew.at, stop.crew.receivedAt) ? ` (received ${LONDON_TIME.format(new Date(stop.crew.receivedAt))})` : ''}
            {stop.crew ? ` · ${stop.crew.workerName}` : ''}
          </span>
        </div>
      </div>
      {stop.photos.length > 0 && (
        <ul className="mt-2 grid grid-cols-[repeat(auto-fill,minmax(15rem,1fr))] gap-2" aria-label={`Crew photos of booking #${stop.bookingId}`}>
          {stop.photos.map((photo) => (
            <li key={photo.id} className="flex gap-2 rounded-lg border border-concrete-100 bg-paper p-1.5">
              <a href={`/uploads/${photo.fileName}`} target="_blank" rel="noopener" className="shrink-0">
                <img src={`/uploads/${photo.thumbnailFileName ?? photo.fileName}`} alt={`${photo.photoType} photo of booking #${stop.bookingId}`} loading="lazy" className="h-12 w-12 rounded object-cover" />
              </a>
              <div className="min-w-0">
                <p className="text-xs font-semibold capitalize">{photo.photoType}</p>
                <PhotoProof photo={photo} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

/** The question before replacing a live link (the worker's phone keeps what it has not sent). */
export function resendQuestion(worker: Pick<CrewBoardWorker, 'name' | 'email'>): string {
  return `Send ${worker.name} a new link? The link ${worker.name} is using now stops working at once; the new one goes to ${worker.email}. Taps and photos waiting on their phone go with the new link.`;
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
    // A new link ends the one the worker may be using at this moment: asked first, naming that.
    if (action === 'resend' && state === 'live' && !window.confirm(resendQuestion(worker))) return;
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
