// Where a rain day's bookings go (api.md "Schedule and weather days"), pure so it is tested as a
// table: paid bookings first, then the oldest; a region's bookings kept together on the earliest
// later day with room for all of them; else each on the earliest day with room for it; what fits
// nowhere in the window is listed, never dropped.

export interface WeatherCandidate {
  bookingId: number;
  businessName: string;
  region: string | null;
  quantity: number;
  paid: boolean;
  createdAt: Date;
}

export interface DayRoom {
  date: string;
  /** Patches still free on the day. */
  free: number;
  /** Closed for everyone. */
  closed: boolean;
  /** Regions a weather day closed it for. */
  closedRegions: readonly string[];
}

export interface WeatherMove {
  bookingId: number;
  businessName: string;
  region: string | null;
  from: string;
  to: string;
}

export interface Unplaced {
  bookingId: number;
  reason: string;
}

export const noDayWithRoom = (quantity: number, days: number) => `No day in the next ${days} days has room for its ${quantity} patches.`;

/** Paid first, then oldest first (and the lower id between equals). */
export function weatherOrder(a: WeatherCandidate, b: WeatherCandidate): number {
  if (a.paid !== b.paid) return a.paid ? -1 : 1;
  return a.createdAt.getTime() - b.createdAt.getTime() || a.bookingId - b.bookingId;
}

const isOpenFor = (day: DayRoom, region: string | null) => !day.closed && (region === null || !day.closedRegions.includes(region));

export function planWeatherMoves(
  date: string,
  candidates: readonly WeatherCandidate[],
  rooms: readonly DayRoom[],
  windowDays: number,
): { moves: WeatherMove[]; unplaced: Unplaced[] } {
  const days = rooms.map((room) => ({ ...room })).sort((a, b) => a.date.localeCompare(b.date));
  const groups = new Map<string | null, WeatherCandidate[]>();
  for (const candidate of [...candidates].sort(weatherOrder)) {
    const group = groups.get(candidate.region) ?? [];
    group.push(candidate);
    groups.set(candidate.region, group);
  }
  const moves: WeatherMove[] = [];
  const unplaced: Unplaced[] = [];
  const place = (candidate: WeatherCandidate, day: (typeof days)[number]) => {
    day.free -= candidate.quantity;
    moves.push({ bookingId: candidate.bookingId, businessName: candidate.businessName, region: candidate.region, from: date, to: day.date });
  };
  for (const [region, group] of groups) {
    const total = group.reduce((sum, candidate) => sum + candidate.quantity, 0);
    const together = days.find((day) => isOpenFor(day, region) && day.free >= total);
    if (together) {
      for (const candidate of group) place(candidate, together);
      continue;
    }
    for (const candidate of group) {
      const day = days.find((room) => isOpenFor(room, region) && room.free >= candidate.quantity);
      if (day) place(candidate, day);
      else unplaced.push({ bookingId: candidate.bookingId, reason: noDayWithRoom(candidate.quantity, windowDays) });
    }
  }
  return { moves, unplaced };
}
