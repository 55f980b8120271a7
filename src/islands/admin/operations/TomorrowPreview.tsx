import { formatLongDate } from '../../../domain/format.ts';
import { WORKER_PREVIEW_MAX_ADDRESSES } from '../../../domain/workers.ts';
import type { Load } from './use-load.ts';
import type { WorkerPreview } from './types.ts';
import { OpenRouteLink, StopAddresses, StopMeta } from './RouteParts.tsx';

/** The Workers tab's preview of tomorrow's installations in London, routed as the e-mail will be. */
export function TomorrowPreview({ preview, retry }: { preview: Load<WorkerPreview>; retry: () => void }) {
  return (
    <section aria-labelledby="preview-heading" className="card p-5">
      <h3 id="preview-heading" className="text-lg">
        Tomorrow&rsquo;s installations
      </h3>
      {preview.state === 'loading' && <p role="status" className="mt-3 text-concrete-600">Loading tomorrow&rsquo;s routes…</p>}
      {preview.state === 'error' && (
        <div role="alert" className="mt-3 text-danger-600">
          <p>Could not load tomorrow&rsquo;s routes.</p>
          <button type="button" className="btn-secondary mt-3" onClick={retry}>
            Try again
          </button>
        </div>
      )}
      {preview.state === 'ready' && (
        <>
          <p className="mt-1 text-concrete-700">{formatLongDate(preview.data.date)}</p>
          <dl className="mt-4 grid grid-cols-2 gap-3">
            <div className="rounded-xl bg-concrete-50 p-3">
              <dt className="text-sm text-concrete-700">Bookings</dt>
              <dd className="text-2xl font-bold tabular-nums">{preview.data.bookingsCount}</dd>
            </div>
            <div className="rounded-xl bg-concrete-50 p-3">
              <dt className="text-sm text-concrete-700">Routes</dt>
              <dd className="text-2xl font-bold tabular-nums">{preview.data.routesCount}</dd>
            </div>
          </dl>
          {preview.data.routesCount === 0 ? (
            <p className="mt-4 rounded-xl border border-dashed border-concrete-300 p-6 text-center text-concrete-700">No installations tomorrow</p>
          ) : (
            <ol className="mt-5 space-y-5" aria-label="Routes for tomorrow">
              {preview.data.routes.map((route) => (
                <li key={route.routeNumber} className="border-t border-concrete-200 pt-4">
                  <div className="flex flex-wrap items-baseline justify-between gap-2">
                    <h4 className="font-semibold">
                      Route {route.routeNumber}{' '}
                      <span className="font-normal text-concrete-700">
                        ({route.stops} stop{route.stops === 1 ? '' : 's'}
                        {route.distanceKm === null ? '' : `, ${route.distanceKm} km`})
                      </span>
                    </h4>
                    {route.mapsUrl && (
                      <OpenRouteLink url={route.mapsUrl} routeNumber={route.routeNumber} className="text-sm font-semibold text-accent-700 underline" />
                    )}
                  </div>
                  <ol className="mt-2 list-decimal space-y-2 pl-5 text-sm">
                    {route.bookings.map((booking) => (
                      <li key={booking.bookingId}>
                        <span className="font-semibold">{booking.customerName}</span>
                        <StopMeta postcode={booking.postcode} bookingId={booking.bookingId} />
                        <StopAddresses addresses={booking.addresses} shown={WORKER_PREVIEW_MAX_ADDRESSES} />
                      </li>
                    ))}
                  </ol>
                </li>
              ))}
            </ol>
          )}
        </>
      )}
    </section>
  );
}

