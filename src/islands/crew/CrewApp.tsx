import { Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import leafletStylesheet from 'leaflet/dist/leaflet.css?url';
import { isCrewDayOver } from '../../domain/crew.ts';
import { ApiError } from '../shared/api.ts';
import { MapBoundary, lazyWithStylesheet } from '../shared/load-stylesheet.ts';
import { CREW_DAY_KEY } from '../shared/storage-keys.ts';
import type { MapTiles } from '../admin/operations/map-tiles.ts';
import { fetchCrewDay, type CrewDayData } from './crew-api.ts';
import { readDayCopy, saveDayCopy } from './crew-offline.ts';
import { DAY_OVER, DAY_OVER_CHECK_MS, forgetCrewDay, forgetEndedDay, useCrewToken } from './crew-link.ts';
import { DayHeader } from './DayHeader.tsx';
import { LinkProblem } from './LinkProblem.tsx';
import type { HeldLink } from './crew-queue-store.ts';
import { QueuePanel } from './QueuePanel.tsx';
import { StopCard, type OfficePhone, type StopActions } from './StopCard.tsx';
import { useCrewQueue } from './use-crew-queue.ts';
import { queueRetryDelayMs } from './crew-queue.ts';

// /crew (api.md "Crew day"): a worker's stops for the day on their phone. No account: the crew
// link's token comes in the address once, is kept on the phone and removed from the address bar.
// Every tap and photo goes through the queue (crew-queue.ts) so a bad signal loses nothing, and
// the service worker (crew-offline.ts) lets the page open again with no signal at all.

const RouteMap = lazyWithStylesheet(() => import('../admin/operations/RouteMap.tsx'), leafletStylesheet);

type Load =
  | { state: 'loading' }
  | { state: 'ready'; day: CrewDayData; offline: boolean; savedAt: string }
  | { state: 'error'; status: number | null; message: string };



export default function CrewApp({ tiles, office }: { tiles: MapTiles; office: OfficePhone }) {
  const token = useCrewToken();
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [notice, setNotice] = useState('');
  const loadedDay = load.state === 'ready' ? load.day.date : null;
  const loadedWorker = load.state === 'ready' ? load.day.worker.name : null;
  const held: HeldLink | null = useMemo(() => (token ? { token, day: loadedDay, worker: loadedWorker } : null), [token, loadedDay, loadedWorker]);
  const { queue, state: queueState, flush: flushQueue, enqueue, linkEnded } = useCrewQueue(held);

  const refresh = useCallback(async (): Promise<boolean> => {
    if (!token) return false;
    try {
      const day = await fetchCrewDay(token);
      const copy = saveDayCopy(token, day, new Date());
      setLoad({ state: 'ready', day, offline: false, savedAt: copy.savedAt });
      return true;
    } catch (error) {
      if (error instanceof ApiError) {
        // A link that never was is forgotten with its day. A link that ended or is not yet open
        // loses its day but stays, so the page keeps saying why (the ended link opens nothing).
        if (error.status === 404) forgetCrewDay();
        if (error.status === 403 || error.status === 410) localStorage.removeItem(CREW_DAY_KEY);
        setLoad({ state: 'error', status: error.status, message: error.message });
        return false;
      }
      // No signal: the day this phone saw last with this link, if it has one.
      const copy = readDayCopy(token);
      setLoad(
        copy
          ? { state: 'ready', day: copy.day, offline: true, savedAt: copy.savedAt }
          : { state: 'error', status: null, message: 'No signal. Your day will show as soon as the phone is back online.' },
      );
      return false;
    }
  }, [token]);

  useEffect(() => {
    if (token === undefined) return;
    if (token === null) {
      setLoad({ state: 'error', status: 404, message: 'Open the link in your route e-mail to see your day.' });
      return;
    }
    const copy = readDayCopy(token);
    if (copy) setLoad({ state: 'ready', day: copy.day, offline: !navigator.onLine, savedAt: copy.savedAt });
    void refresh();
  }, [token, refresh]);

  const flush = useCallback(async () => {
    const result = await flushQueue();
    if (!result) return;
    if (result.rejected.length > 0) setNotice(result.rejected.map((rejected) => rejected.reason).join(' '));
    if (result.sent.length > 0 || result.rejected.length > 0) await refresh();
  }, [flushQueue, refresh]);

  // The queue goes once the day has loaded with the link the phone holds (so an item made under
  // an earlier link of the same day goes with this one), and again whenever the signal returns.
  const flushRef = useRef(flush);
  flushRef.current = flush;
  useEffect(() => {
    if (queue && loadedDay && load.state === 'ready' && !load.offline) void flushRef.current();
  }, [queue, loadedDay, load]);
  useEffect(() => {
    const online = () => void refresh();
    window.addEventListener('online', online);
    return () => window.removeEventListener('online', online);
  }, [refresh]);

  // A phone can say it is online while nothing flows (weak 4G, a captive Wi-Fi) and never fire
  // `online` again: while items wait, the page tries again by itself, backing off (5 s doubling
  // to 2 minutes), and at once whenever it comes back to the screen. Each try loads the day
  // first, and a day that loads sends the queue (above). Background Sync, where the browser has
  // it, covers the page closed.
  const waiting = queueState.items.some((item) => !item.problem) && !linkEnded;
  const failures = useRef(0);
  useEffect(() => {
    if (!waiting) {
      failures.current = 0;
      return;
    }
    if (queueState.sending || document.visibilityState !== 'visible') return;
    const timer = setTimeout(() => {
      failures.current += 1;
      void refresh();
    }, queueRetryDelayMs(failures.current));
    return () => clearTimeout(timer);
  }, [waiting, queueState.sending, queueState.items, load, refresh]);

  // The day's customers stay on the phone only while the day lasts (docs/SECURITY.md): checked
  // at every opening (useCrewToken), each time the page comes back to the screen, and every
  // minute while it is on screen.
  useEffect(() => {
    const check = () => {
      if (document.visibilityState !== 'visible') return;
      if (load.state === 'ready' && isCrewDayOver(load.day.date, new Date())) {
        forgetCrewDay();
        setLoad({ state: 'error', status: 410, message: DAY_OVER });
        return;
      }
      forgetEndedDay(new Date());
    };
    const visible = () => {
      check();
      if (document.visibilityState === 'visible' && waiting) void refresh();
    };
    const timer = setInterval(check, DAY_OVER_CHECK_MS);
    document.addEventListener('visibilitychange', visible);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', visible);
    };
  }, [load, waiting, refresh]);

  const actions: StopActions | null = useMemo(() => {
    if (!queue || !token) return null;
    const stopOrder = (bookingId: number) => (load.state === 'ready' ? load.day.stops.find((stop) => stop.bookingId === bookingId)?.order : undefined);
    const add = async (entry: Parameters<typeof enqueue>[0]) => {
      await enqueue(entry);
      await flush();
    };
    return {
      onTheWay: (bookingId) => add({ bookingId, stopOrder: stopOrder(bookingId), action: 'on-the-way' }),
      done: (bookingId) => add({ bookingId, stopOrder: stopOrder(bookingId), action: 'done' }),
      undoDone: (bookingId) => add({ bookingId, stopOrder: stopOrder(bookingId), action: 'undo-done' }),
      photo: (bookingId, photo) => add({ bookingId, stopOrder: stopOrder(bookingId), action: 'photo', ...photo }),
      notify: setNotice,
    };
  }, [queue, token, enqueue, flush, load]);

  const panel = (ended: boolean) => (
    <QueuePanel items={queueState.items} sending={queueState.sending} linkEnded={ended} queue={queue} onRetry={() => void flush()} />
  );

  if (load.state === 'loading') {
    return (
      <p role="status" className="px-5 py-16 text-center text-concrete-700">
        Loading your day…
      </p>
    );
  }
  if (load.state === 'error') {
    const ended = load.status === 404 || load.status === 410;
    return (
      <LinkProblem status={load.status} message={load.message} onRetry={() => void refresh()}>
        {panel(ended)}
      </LinkProblem>
    );
  }

  const { day } = load;
  const done = day.stops.filter((stop) => stop.status === 'done').length;
  const mapStops = day.stops.flatMap((stop) =>
    stop.lat !== null && stop.lng !== null ? [{ number: stop.order, label: stop.addresses[0] ?? stop.customerFirstName, lat: stop.lat, lng: stop.lng }] : [],
  );

  return (
    <div className="mx-auto max-w-xl pb-16">
      <DayHeader workerName={day.worker.name} date={day.date} done={done} total={day.stops.length} offlineSince={load.offline ? load.savedAt : null} />

      <div className="space-y-4 px-4 pt-4">
        <div role="status" aria-live="polite" className="empty:hidden">
          {panel(linkEnded !== null)}
        </div>
        {notice && (
          <p role="alert" className="rounded-2xl bg-danger-50 p-4 text-danger-600">
            {notice}
          </p>
        )}

        {day.stops.length === 0 ? (
          <p className="card p-6 text-center text-concrete-700">No stops for you on this day. The office can give you a route.</p>
        ) : (
          <>
            {mapStops.length > 0 && (
              <div className="card h-52 overflow-hidden" role="region" aria-label="Map of your stops (the list below has the same stops)">
                <MapBoundary fallback={<p className="p-4 text-sm text-concrete-600">The map could not be loaded; your stops are listed below.</p>}>
                  <Suspense fallback={<p className="p-4 text-sm text-concrete-600">Loading map…</p>}>
                    <RouteMap stops={mapStops} tiles={tiles} />
                  </Suspense>
                </MapBoundary>
              </div>
            )}
            <ol className="space-y-4" aria-label="Your stops in order">
              {day.stops.map((stop) => (
                <li key={stop.bookingId}>
                  <StopCard stop={stop} pending={queueState.items.filter((item) => item.bookingId === stop.bookingId)} actions={actions} office={office} />
                </li>
              ))}
            </ol>
          </>
        )}
        <button type="button" className="btn-secondary w-full" onClick={() => void refresh()}>
          Refresh my day
        </button>
      </div>
    </div>
  );
}


