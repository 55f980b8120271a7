import { describe, expect, it } from 'vitest';
import { ApiError } from '../shared/api.ts';
import { swipeDirection } from './Lightbox.tsx';
import { trackingErrorMessage } from './TrackProject.tsx';
import { TRACKING_LINK_EXPIRED, TRACKING_NOT_FOUND, groupPhotosByStep, readLinkToken, withoutLinkToken, type Photo } from './tracking-api.ts';

describe('readLinkToken', () => {
  it.each([
    ['?t=DemoLinkNorthernRoastCoffee-2026', 'DemoLinkNorthernRoastCoffee-2026'],
    ['?x=1&t=abc_DEF-1234567', 'abc_DEF-1234567'],
    ['', null],
    ['?t=', null],
    ['?t=short', null],
    ['?t=%3Cscript%3E12345678', null],
  ])('%s → %s', (search, token) => {
    expect(readLinkToken(search)).toBe(token);
  });
});

describe('withoutLinkToken', () => {
  it.each([
    ['http://localhost/track-project?t=abc', '/track-project'],
    ['http://localhost/track-project?x=1&t=abc#photos', '/track-project?x=1#photos'],
    ['http://localhost/track-project', '/track-project'],
  ])('%s → %s', (href, expected) => {
    expect(withoutLinkToken(href)).toBe(expected);
  });
});

describe('swipeDirection', () => {
  it.each([
    [-80, 5, 1],
    [80, -5, -1],
    [-30, 0, 0],
    [-60, 90, 0],
    [0, 0, 0],
  ] as const)('dx %d, dy %d → %d', (dx, dy, direction) => {
    expect(swipeDirection(dx, dy)).toBe(direction);
  });
});

describe('trackingErrorMessage', () => {
  it.each([
    [new ApiError(TRACKING_NOT_FOUND, 404), TRACKING_NOT_FOUND],
    [new ApiError('Please enter your email and booking ID.', 400), TRACKING_NOT_FOUND],
    [new ApiError('Too many', 429, {}, 540), 'Too many attempts. Please wait 9 minutes and try again.'],
    [new ApiError('Too many', 429, {}, 30), 'Too many attempts. Please wait 1 minute and try again.'],
    [new TypeError('Failed to fetch'), 'We could not reach our server. Please check your connection and try again.'],
  ])('%s', (error, message) => {
    expect(trackingErrorMessage(error)).toBe(message);
  });

  it('says a link that is unknown or used has expired, not to check what the person never typed', () => {
    expect(trackingErrorMessage(new ApiError(TRACKING_NOT_FOUND, 404), true)).toBe(TRACKING_LINK_EXPIRED);
    expect(trackingErrorMessage(new ApiError('Bad token', 400), true)).toBe(TRACKING_LINK_EXPIRED);
    expect(TRACKING_LINK_EXPIRED).toMatch(/link has expired/);
    expect(TRACKING_LINK_EXPIRED).not.toMatch(/check your email/i);
  });
});

describe('groupPhotosByStep', () => {
  const photo = (id: number, step: number, createdAt: string): Photo => ({
    id, step, createdAt, fileName: `${id}.png`, originalName: `${id}.png`, description: null, photoType: 'after', fileSize: 1,
  });

  it('groups by step in step order, oldest first within a step', () => {
    const groups = groupPhotosByStep([photo(3, 5, '2026-07-14T10:00:00Z'), photo(2, 4, '2026-07-14T09:30:00Z'), photo(1, 4, '2026-07-14T09:00:00Z')]);
    expect(groups.map((group) => [group.step, group.photos.map((item) => item.id)])).toEqual([[4, [1, 2]], [5, [3]]]);
  });

  it('has no groups without photos', () => {
    expect(groupPhotosByStep([])).toEqual([]);
  });
});
