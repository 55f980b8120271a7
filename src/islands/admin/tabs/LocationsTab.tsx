import { Suspense, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useStore } from '@nanostores/react';
import { $mapTiles } from '../operations/map-tiles.ts';
import type { RouteGroup, Worker } from '../operations/types.ts';
import type { DayRouteGroup as DayRoute } from '../../../server/services/crew/day-routes.ts';
import { assignStops, RouteAssign } from '../operations/RouteAssign.tsx';
import { SegmentedControl } from '../../shared/SegmentedControl.tsx';
import { tabKeyTarget } from '../../shared/tab-keys.ts';
import { addDays, formatLongDate } from '../../../domain/format.ts';
import { londonDate } from '../../../domain/schedule.ts';

/** Every active booking's groups, or (with a day) that crew day's routes with who holds each stop. */
type DayRouteGroup = RouteGroup & Partial<Pick<DayRoute, 'workerId' | 'bookings'>>;
import { DEFAULT_ROUTE_GROUP_SIZE, ROUTE_GROUP_SIZES } from '../../../domain/route-group-sizes.ts';
import type { RouteMapStop } from '../operations/RouteMap.tsx';
import { OpenRouteLink, StopAddresses, StopMeta } from '../operations/RouteParts.tsx';
import { useLoad } from '../operations/use-load.ts';
import { MapBoundary, lazyWithStylesheet } from '../../shared/load-stylesheet.ts';
import leafletStylesheet from 'leaflet/dist/leaflet.css?url';

// The Locations tab (admin-dashboard.md §2): bookings by region, and route groups of 3, 5, 8 or
// 10 stops with the estimated saving and a maps link. Each route's small map loads Leaflet on
// demand, so nothing map-related is fetched until a route group is on screen.

// Leaflet's sheet is fetched with the map, not put in the page's head by the build: there it held
// up the first paint of every /admin visit, sign-in gate included.
const RouteMap = lazyWithStylesheet(() => import('../operations/RouteMap.tsx'), leafletStylesheet);

/** admin-dashboard.md §2: "up to 2 or 3 addresses are displayed per booking". */
const ADDRESSES_SHOWN = 3;

type View = 'regions' | 'routes';
const VIEWS: { id: View; label: string }[] = [
  { id: 'regions', label: 'By Region' },
  { id: 'routes', label: 'Route Groups' },
];

export default function LocationsTab() {
  const [view, setView] = useState<View>('regions');
  const tabs = useRef<Record<View, HTMLButtonElement | null>>({ regions: null, routes: null });

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const next = tabKeyTarget(event, VIEWS.findIndex((item) => item.id === view), VIEWS.length);
    if (next === null) return;
    const target = VIEWS[next]!.id;
    setView(target);
    tabs.current[target]?.focus();
  };

  return (
    <section aria-labelledby="locations-heading">
      <h2 id="locations-heading" className="text-2xl">
        Locations
      </h2>
      <div role="tablist" aria-label="Location views" onKeyDown={onKeyDown} className="mt-4 inline-flex rounded-xl bg-concrete-50 p-1">
        {VIEWS.map((item) => (
          <button
            key={item.id}
            ref={(element) => {
              tabs.current[item.id] = element;
            }}
            type="button"
            role="tab"
            id={`locations-tab-${item.id}`}
            aria-selected={view === item.id}
            aria-controls={`locations-panel-${item.id}`}
            tabIndex={view === item.id ? 0 : -1}
            onClick={() => setView(item.id)}
            className={[
              'min-h-11 rounded-lg px-4 text-sm font-semibold',
              view === item.id ? 'bg-white text-ink shadow-sm' : 'text-concrete-700 hover:text-ink',
            ].join(' ')}
          >
            {item.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`locations-panel-${view}`} aria-labelledby={`locations-tab-${view}`} tabIndex={0} className="mt-6 focus:outline-none">
        {view === 'regions' ? <RegionsView /> : <RoutesView />}
      </div>
    </section>
  );
}

function LoadFailed({ what, retry }: { what: string; retry: () => void }) {
  return (
    <div role="alert" className="rounded-xl border border-danger-600 bg-danger-50 p-4 text-danger-600">
      <p>Could not load {what}.</p>
      <button type="button" className="btn-secondary mt-3" onClick={retry}>
        Try again
      </button>
    </div>
  );
}

function RegionsView() {
  const [load, retry] = useLoad<Record<string, number>>('/api/locations/regions');
  if (load.state === 'loading') return <p role="status" className="text-concrete-600">Loading regions…</p>;
  if (load.state === 'error') return <LoadFailed what="the regions" retry={retry} />;
  const rows = Object.entries(load.data).sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  if (rows.length === 0) return <p className="text-concrete-700">No bookings yet.</p>;
  const max = Math.max(...rows.map(([, count]) => count));
  const total = rows.reduce((sum, [, count]) => sum + count, 0);
  return (
    <div className="card max-w-2xl p-5">
      <h3 className="text-lg">Bookings by region</h3>
      <p className="mt-1 text-sm text-concrete-600">
        {total} active booking{total === 1 ? '' : 's'} (archived and cancelled bookings are not counted).
      </p>
      <ul className="mt-4 space-y-3" aria-label="Bookings per region">
        {rows.map(([region, count]) => (
          <li key={region}>
            <div className="flex items-baseline justify-between gap-3 text-sm">
              <span className="font-semibold text-ink">{region}</span>
              <span className="tabular-nums text-concrete-700">
                {count} booking{count === 1 ? '' : 's'}
              </span>
            </div>
            <div className="mt-1 h-2 rounded-full bg-concrete-100" aria-hidden="true">
              <div className="h-2 rounded-full bg-accent-500" style={{ width: `${Math.max(4, (count / max) * 100)}%` }} />
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Which bookings Route Groups shows: every active one, or one crew day's. */
type RouteScope = { label: string; date: string | null };

function RoutesView() {
  const [size, setSize] = useState<number>(DEFAULT_ROUTE_GROUP_SIZE);
  const today = londonDate(new Date());
  const scopes: RouteScope[] = [
    { label: 'All active', date: null },
    { label: 'Today', date: today },
    { label: 'Tomorrow', date: addDays(today, 1) },
  ];
  const [scope, setScope] = useState<RouteScope>(scopes[0]!);
  const url = scope.date ? `/api/locations/grouping?date=${scope.date}` : `/api/locations/grouping?size=${size}`;
  const [load, retry] = useLoad<DayRouteGroup[]>(url);
  // A crew day's routes can be given to workers here as on the Workers tab.
  const [workers] = useLoad<Worker[]>('/api/admin/workers');
  const activeWorkers = workers.state === 'ready' ? workers.data.filter((worker) => worker.active).map((worker) => ({ id: worker.id, name: worker.name ?? worker.email })) : [];
  const assign = scope.date ? (bookingIds: number[], workerId: number | null) => void assignStops(scope.date!, bookingIds, workerId, retry) : null;
  return (
    <div>
      <div className="flex flex-wrap items-end gap-4">
        <div>
          <span className="block text-sm font-semibold text-ink">Bookings</span>
          <div className="mt-1">
            <SegmentedControl label="Bookings" options={scopes} selected={scopes.find((option) => option.date === scope.date)!} onSelect={setScope} />
          </div>
        </div>
        {scope.date === null && (
          <div>
            <label htmlFor="route-group-size" className="block text-sm font-semibold text-ink">
              Stops per route
            </label>
            <select
              id="route-group-size"
              value={size}
              onChange={(event) => setSize(Number(event.target.value))}
              className="mt-1 min-h-11 rounded-xl border border-concrete-300 bg-white px-3 text-base"
            >
              {ROUTE_GROUP_SIZES.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </select>
          </div>
        )}
        {load.state === 'ready' && load.data.length > 0 && (
          <p className="text-sm text-concrete-700" aria-live="polite">
            {load.data.length} route{load.data.length === 1 ? '' : 's'}, {load.data.reduce((sum, group) => sum + group.stops, 0)} stops
          </p>
        )}
      </div>
      {scope.date && (
        <p className="mt-2 text-sm text-concrete-700">
          {formatLongDate(scope.date)}: the crew day&rsquo;s routes, numbered as on the Workers tab and in the worker e-mail. Give a route to a worker here or there.
        </p>
      )}
      <div className="mt-6">
        {load.state === 'loading' && <p role="status" className="text-concrete-600">Loading routes…</p>}
        {load.state === 'error' && <LoadFailed what="the route groups" retry={retry} />}
        {load.state === 'ready' && load.data.length === 0 && (
          <p className="rounded-xl border border-dashed border-concrete-300 p-8 text-center text-concrete-700">{scope.date ? 'No installations on this day' : 'No active routes'}</p>
        )}
        {load.state === 'ready' && load.data.length > 0 && (
          <ol className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-2" aria-label="Route groups">
            {load.data.map((group) => (
              <RouteCard
                key={`${scope.date ?? size}-${group.routeNumber}`}
                group={group}
                assign={
                  assign && group.workerId !== undefined ? (
                    <RouteAssign idPrefix="locations" routeNumber={group.routeNumber} workerId={group.workerId} stops={group.bookings} workers={activeWorkers} onAssign={assign} />
                  ) : null
                }
              />
            ))}
          </ol>
        )}
      </div>
    </div>
  );
}

function RouteCard({ group, assign }: { group: RouteGroup; assign: ReactNode }) {
  const tiles = useStore($mapTiles);
  const stops: RouteMapStop[] = group.bookings.flatMap((booking, index) => {
    const point = booking.points[0];
    return point ? [{ number: index + 1, label: booking.customerName, lat: point.lat, lng: point.lng }] : [];
  });
  const headingId = `route-${group.routeNumber}-heading`;
  return (
    <li className="card flex flex-col p-5">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={headingId} className="text-lg">
          Route {group.routeNumber}: {group.area}
        </h3>
        <span className="rounded-full bg-concrete-50 px-2.5 py-0.5 text-xs font-semibold text-concrete-700">{group.region}</span>
      </div>
      <dl className="mt-2 flex flex-wrap gap-x-5 gap-y-1 text-sm text-concrete-700">
        <div className="flex gap-1">
          <dt>Stops:</dt>
          <dd className="font-semibold text-ink">{group.stops}</dd>
        </div>
        <div className="flex gap-1">
          <dt>Distance:</dt>
          <dd className="font-semibold text-ink">{group.distanceKm === null ? 'unknown' : `${group.distanceKm} km`}</dd>
        </div>
        <div className="flex gap-1">
          <dt className="sr-only">Saving</dt>
          <dd className="font-semibold text-accent-700">Estimated saving: {group.estimatedMinutesSaved} minutes</dd>
        </div>
      </dl>
      {assign && <div className="mt-3">{assign}</div>}
      {tiles && stops.length > 0 && (
        <figure className="mt-4 h-48 overflow-hidden rounded-xl border border-concrete-200" aria-label={`Map of route ${group.routeNumber}`}>
          <MapBoundary
            fallback={<p className="flex h-full items-center justify-center p-4 text-center text-sm text-concrete-700">The map could not be loaded; the stops are listed below.</p>}
          >
            <Suspense fallback={<p className="p-4 text-sm text-concrete-600">Loading map…</p>}>
              <RouteMap stops={stops} tiles={tiles} />
            </Suspense>
          </MapBoundary>
        </figure>
      )}
      <ol className="mt-4 space-y-3 text-sm">
        {group.bookings.map((booking, index) => (
          <li key={booking.bookingId} className="flex gap-3">
            <span aria-hidden="true" className="flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-ink text-xs font-bold text-white">
              {index + 1}
            </span>
            <div className="min-w-0">
              <p className="font-semibold text-ink">
                <span className="sr-only">Stop {index + 1}: </span>
                {booking.customerName}
                <StopMeta postcode={booking.postcode} bookingId={booking.bookingId} />
              </p>
              <StopAddresses addresses={booking.addresses} shown={ADDRESSES_SHOWN} className="mt-0.5" />
            </div>
          </li>
        ))}
      </ol>
      {group.mapsUrl && (
        <OpenRouteLink url={group.mapsUrl} routeNumber={group.routeNumber} className="btn-secondary mt-5 self-start" />
      )}
    </li>
  );
}
