// The answers of the Locations and Workers calls (api.md "Admin calls"), as the browser reads them.

export interface LatLngPoint {
  lat: number;
  lng: number;
}

export interface RouteGroupBooking {
  bookingId: number;
  customerName: string;
  postcode: string | null;
  region: string | null;
  preferredDate: string;
  addresses: string[];
  points: LatLngPoint[];
}

export interface RouteGroup {
  routeNumber: number;
  area: string;
  region: string;
  stops: number;
  distanceKm: number | null;
  estimatedMinutesSaved: number;
  mapsUrl: string | null;
  bookings: RouteGroupBooking[];
}

export interface WorkerPreview {
  date: string;
  bookingsCount: number;
  routesCount: number;
  routes: {
    routeNumber: number;
    stops: number;
    distanceKm: number | null;
    mapsUrl: string | null;
    bookings: { bookingId: number; customerName: string; postcode: string | null; addresses: string[] }[];
  }[];
}

export interface Worker {
  id: number;
  name: string | null;
  email: string;
  active: boolean;
  createdAt: string;
}

/** The sizes the grouping call accepts (domain/routing.ts ROUTE_GROUP_SIZES; that module is server-only). */
export const ROUTE_GROUP_SIZE_OPTIONS = [3, 5, 8, 10] as const;
export const DEFAULT_GROUP_SIZE = 5;
