import { ApiError } from '../../shared/api.ts';
import { showToast } from '../../shared/toast-store.ts';
import { adminApi as api } from '../admin-api.ts';

// Who a crew day's route goes to, the same control on the Workers tab's board and the Locations
// tab's day view (server: services/crew/day-routes.ts). A route given to nobody goes to every
// active worker; a stop that joins a route given to someone waits until staff give it to a worker.

export interface AssignableStop {
  bookingId: number;
  workerId: number | null;
  waiting: boolean;
}

export interface AssignableWorker {
  id: number;
  name: string;
}

/** Gives the stops to a worker (null: to nobody), says how it went, then reloads the view. */
export async function assignStops(date: string, bookingIds: number[], workerId: number | null, reload: () => void) {
  try {
    await api('/api/admin/crew/assignments', { method: 'PUT', body: { date, bookingIds, workerId } });
    showToast({ title: 'Route Assigned', description: workerId ? 'Only this worker gets these stops now.' : 'Every active worker gets this route.', variant: 'success' });
  } catch (error) {
    showToast({ title: 'Assignment Failed', description: error instanceof ApiError && error.status < 500 ? error.message : 'Please try again.', variant: 'destructive' });
  }
  reload();
}

const SEVERAL = 'several';

export function RouteAssign({
  idPrefix,
  routeNumber,
  workerId,
  stops,
  workers,
  onAssign,
}: {
  idPrefix: string;
  routeNumber: number;
  workerId: number | null;
  stops: AssignableStop[];
  workers: AssignableWorker[];
  onAssign: (bookingIds: number[], workerId: number | null) => void;
}) {
  const selectId = `${idPrefix}-route-${routeNumber}`;
  const isSplit = workerId === null && stops.some((stop) => stop.workerId !== null);
  const waiting = stops.filter((stop) => stop.waiting);
  // The workers already on the route: a waiting stop most likely belongs with one of them.
  const holders = workers.filter((worker) => stops.some((stop) => stop.workerId === worker.id));
  return (
    <div className="w-full sm:w-auto">
      <label htmlFor={selectId} className="block text-sm font-semibold">
        Crew for route {routeNumber}
      </label>
      <select
        id={selectId}
        className="mt-1 min-h-11 w-full rounded-lg border border-concrete-300 bg-white px-3 text-base sm:w-56"
        value={workerId ?? (isSplit ? SEVERAL : '')}
        onChange={(event) =>
          onAssign(
            stops.map((stop) => stop.bookingId),
            event.target.value ? Number(event.target.value) : null,
          )
        }
      >
        <option value="">Every active worker</option>
        {isSplit && (
          <option value={SEVERAL} disabled>
            Several workers
          </option>
        )}
        {workers.map((worker) => (
          <option key={worker.id} value={worker.id}>
            {worker.name}
          </option>
        ))}
      </select>
      {waiting.length > 0 && (
        <div role="status" className="mt-2 rounded-lg bg-warning-50 p-2 text-sm text-warning-700" data-testid="route-waiting">
          <p>
            {waiting.length === 1 ? '1 new stop waits' : `${waiting.length} new stops wait`} for you to assign{' '}
            {waiting.length === 1 ? 'it' : 'them'}: no worker gets {waiting.length === 1 ? 'it' : 'them'} until then.
          </p>
          {holders.length > 0 && (
            <div className="flex flex-wrap gap-x-4">
              {holders.map((holder) => (
                <button
                  key={holder.id}
                  type="button"
                  className="min-h-11 font-semibold text-ink underline underline-offset-2"
                  onClick={() =>
                    onAssign(
                      waiting.map((stop) => stop.bookingId),
                      holder.id,
                    )
                  }
                >
                  Give {waiting.length === 1 ? 'it' : 'them'} to {holder.name}
                </button>
              ))}
            </div>
          )}
        </div>
      )}
    </div>
  );
}
