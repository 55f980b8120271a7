// The answers of the Locations and Workers calls (api.md "Admin calls"), typed once on the server
// (type-only: nothing of the server reaches the browser bundle).

export type {
  RouteGroupBooking,
  RouteGroupView as RouteGroup,
} from '../../../server/services/locations.ts';
export type { WorkerPreview } from '../../../server/services/worker-notifications.ts';
export type { WorkerView as Worker } from '../../../server/services/workers.ts';

/**
 * The sizes the grouping call accepts, as domain/routing.ts ROUTE_GROUP_SIZES says. They are
 * repeated rather than imported because routing.ts pulls in the whole outward-code table, which
 * has no place in the browser; src/islands/admin/operations/types.test.ts keeps the two equal.
 */
export const ROUTE_GROUP_SIZE_OPTIONS = [3, 5, 8, 10] as const;
export const DEFAULT_GROUP_SIZE = 5;
