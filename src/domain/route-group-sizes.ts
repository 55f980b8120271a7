// The route group sizes (admin-dashboard.md: "Group size options are 3, 5, 8, 10 (default 5)"),
// on their own so the Locations tab can offer them without routing.ts, which reads the whole
// outward-code table and belongs on the server.

export const ROUTE_GROUP_SIZES = [3, 5, 8, 10] as const;
export type RouteGroupSize = (typeof ROUTE_GROUP_SIZES)[number];
export const DEFAULT_ROUTE_GROUP_SIZE: RouteGroupSize = 5;

/** For parsing `?size=`: true for 3, 5, 8 and 10 only. */
export function isRouteGroupSize(value: unknown): value is RouteGroupSize {
  return ROUTE_GROUP_SIZES.includes(value as RouteGroupSize);
}
