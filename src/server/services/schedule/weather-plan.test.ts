import { describe, expect, it } from 'vitest';
import { planWeatherMoves, type DayRoom, type WeatherCandidate } from './weather-plan.ts';

const at = (minutes: number) => new Date(Date.UTC(2027, 6, 1, 0, minutes));
const booking = (bookingId: number, region: string | null, quantity: number, paid: boolean, minutes: number): WeatherCandidate => ({
  bookingId,
  businessName: `B${bookingId}`,
  region,
  quantity,
  paid,
  createdAt: at(minutes),
});
const room = (date: string, free: number, closedRegions: string[] = [], closed = false): DayRoom => ({ date, free, closed, closedRegions });
const targets = (plan: ReturnType<typeof planWeatherMoves>) => Object.fromEntries(plan.moves.map((move) => [move.bookingId, move.to]));

describe('planWeatherMoves', () => {
  it('keeps a region together on the earliest day with room for all of it', () => {
    const plan = planWeatherMoves('2027-07-14', [booking(1, 'A', 10, true, 0), booking(2, 'A', 10, true, 1)], [room('2027-07-15', 15), room('2027-07-16', 20)], 14);
    expect(targets(plan)).toEqual({ 1: '2027-07-16', 2: '2027-07-16' });
    expect(plan.unplaced).toEqual([]);
  });

  it('places paid before unpaid and older before newer when room is short', () => {
    const plan = planWeatherMoves(
      '2027-07-14',
      [booking(1, 'A', 10, false, 0), booking(2, 'A', 10, true, 5), booking(3, 'A', 10, true, 1)],
      [room('2027-07-15', 20)],
      14,
    );
    expect(targets(plan)).toEqual({ 3: '2027-07-15', 2: '2027-07-15' });
    expect(plan.unplaced).toEqual([{ bookingId: 1, reason: 'No day in the next 14 days has room for its 10 patches.' }]);
  });

  it('skips closed days and days closed for the region', () => {
    const plan = planWeatherMoves(
      '2027-07-14',
      [booking(1, 'A', 5, true, 0), booking(2, 'B', 5, true, 0)],
      [room('2027-07-15', 40, [], true), room('2027-07-16', 40, ['A']), room('2027-07-17', 40)],
      14,
    );
    expect(targets(plan)).toEqual({ 1: '2027-07-17', 2: '2027-07-16' });
  });

  it('counts the room each placement takes, so two regions never overfill a day', () => {
    const plan = planWeatherMoves('2027-07-14', [booking(1, 'A', 10, true, 0), booking(2, 'B', 10, true, 1)], [room('2027-07-15', 10), room('2027-07-16', 10)], 14);
    expect(targets(plan)).toEqual({ 1: '2027-07-15', 2: '2027-07-16' });
  });
});
