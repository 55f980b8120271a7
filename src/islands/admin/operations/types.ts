// The answers of the Locations and Workers calls (api.md "Admin calls"), typed once on the server
// (type-only: nothing of the server reaches the browser bundle).

export type {
  RouteGroupBooking,
  RouteGroupView as RouteGroup,
} from '../../../server/services/crew/locations.ts';
export type { WorkerPreview } from '../../../server/services/crew/worker-notifications.ts';
export type { WorkerView as Worker } from '../../../server/services/crew/workers.ts';
