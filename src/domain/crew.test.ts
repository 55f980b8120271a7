import { describe, expect, it } from 'vitest';
import { crewLinkExpiresAt, crewUndoEndsAt, londonWallClock, navigationUrl, stopNavigationUrl, workHoursLabel, crewLinkOpensAt, crewDayLabel, crewLinkNotYetOpen, isCrewDayOver } from './crew.ts';

describe('crew link lifetime', () => {
  it.each([
    // Winter (GMT): noon London is 12:00 UTC.
    ['2026-11-25', '2026-11-26T12:00:00.000Z'],
    // Summer (BST): noon London is 11:00 UTC.
    ['2026-07-14', '2026-07-15T11:00:00.000Z'],
    // The night the clocks go back: the next day's noon is GMT.
    ['2026-10-24', '2026-10-25T12:00:00.000Z'],
    // The night they go forward: the next day's noon is BST.
    ['2026-03-28', '2026-03-29T11:00:00.000Z'],
  ])('a link for %s works until %s', (day, expected) => {
    expect(crewLinkExpiresAt(day).toISOString()).toBe(expected);
  });

  it('reads midnight on London time', () => {
    expect(londonWallClock('2026-07-01', 0).toISOString()).toBe('2026-06-30T23:00:00.000Z');
  });
});

describe('what a stop shows', () => {
  it.each([
    ['day', 'Day work, 9am - 5pm'],
    ['night', 'Night work, 6pm - 6am'],
  ] as const)('%s work reads %s', (workType, label) => {
    expect(workHoursLabel(workType)).toBe(label);
  });

  it('opens the maps app at the stop', () => {
    expect(navigationUrl(53.4823, -2.2389)).toBe('https://maps.google.com/?daddr=53.482300,-2.238900');
  });

  it.each([
    ['no pinned place', [], null],
    ['one place', [{ lat: 53.4823, lng: -2.2389 }], 'https://maps.google.com/?daddr=53.482300,-2.238900'],
    [
      'two places, through the first to the second',
      [
        { lat: 53.4794, lng: -2.2487 },
        { lat: 53.481, lng: -2.2437 },
      ],
      'https://www.google.com/maps/dir/?api=1&destination=53.481000%2C-2.243700&waypoints=53.479400%2C-2.248700&travelmode=driving',
    ],
    [
      'three places, in order',
      [
        { lat: 1, lng: 2 },
        { lat: 3, lng: 4 },
        { lat: 5, lng: 6 },
      ],
      'https://www.google.com/maps/dir/?api=1&destination=5.000000%2C6.000000&waypoints=1.000000%2C2.000000%7C3.000000%2C4.000000&travelmode=driving',
    ],
  ])('navigates a stop with %s', (_name, points, url) => {
    expect(stopNavigationUrl(points)).toBe(url);
  });

  it('lets a Done be undone for 5 minutes', () => {
    expect(crewUndoEndsAt(new Date('2026-11-23T11:15:00Z')).toISOString()).toBe('2026-11-23T11:20:00.000Z');
  });
});

describe('a crew day on the phone', () => {
  it('opens at midnight London, names its day, and is over at noon the next day', () => {
    expect(crewLinkOpensAt('2026-12-04').toISOString()).toBe('2026-12-04T00:00:00.000Z');
    expect(crewLinkOpensAt('2027-07-14').toISOString()).toBe('2027-07-13T23:00:00.000Z');
    expect(crewDayLabel('2025-12-04')).toBe('Thursday 4 December');
    expect(crewLinkNotYetOpen('2026-12-04')).toBe('This link opens on Friday 4 December');
    expect(isCrewDayOver('2026-12-04', new Date('2026-12-05T11:59:59Z'))).toBe(false);
    expect(isCrewDayOver('2026-12-04', new Date('2026-12-05T12:00:00Z'))).toBe(true);
  });
});
