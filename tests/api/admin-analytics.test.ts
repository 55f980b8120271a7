import { beforeAll, describe, expect, it } from 'vitest';
import { analyticsEvents, pageViews } from '../../db/schema.ts';
import { createTestContext, jsonRequest } from '../setup/test-app.ts';
import { adminCookie, adminRequest } from '../setup/admin.ts';
import { ANALYTICS_EVENTS } from '../../src/domain/analytics-events.ts';

const ctx = await createTestContext();
// 10:00 in London on a winter day (GMT): London's day and UTC's day are the same here.
const NOW = new Date('2026-11-22T10:00:00Z');
const HOUR = 60 * 60 * 1000;
const at = (hoursAgo: number) => new Date(NOW.getTime() - hoursAgo * HOUR);
let cookie: string;

const views = (hoursAgo: number, path: string, times: number, geo: { country?: string; city?: string } = {}) =>
  Array.from({ length: times }, () => ({ path, createdAt: at(hoursAgo), country: geo.country ?? null, city: geo.city ?? null }));

const summary = async () => {
  const response = await ctx.app.request('/api/analytics/summary', adminRequest(cookie));
  expect(response.status).toBe(200);
  return response.json();
};

beforeAll(async () => {
  ctx.setNow(NOW);
  cookie = await adminCookie(ctx);
  await ctx.deps.db.insert(pageViews).values([
    // Last 24 hours: 6 views.
    ...views(1, '/', 3, { country: 'United Kingdom', city: 'London' }),
    ...views(2, '/booking', 2, { country: 'United Kingdom', city: 'Manchester' }),
    ...views(23, '/gallery', 1, { country: 'Ireland', city: 'Dublin' }),
    // Earlier in the week: 4 more.
    ...views(30, '/', 2, { country: 'United Kingdom', city: 'London' }),
    ...views(6 * 24, '/about', 1),
    ...views(7 * 24 - 1, '/booking', 1, { country: 'France' }),
    // Older than 7 days: counted in the total and the chart, not in the top lists.
    ...views(8 * 24, '/privacy', 5, { country: 'Germany', city: 'Berlin' }),
    // Older than the chart's 30 days.
    ...views(40 * 24, '/', 7),
  ]);
  await ctx.deps.db.insert(analyticsEvents).values([
    { eventName: 'booking_started', path: '/booking', createdAt: at(1) },
    { eventName: 'booking_started', path: '/booking', createdAt: at(5) },
    { eventName: 'booking_submitted', path: '/booking', createdAt: at(5) },
    { eventName: 'payment_succeeded', path: '/payment-success', createdAt: at(25) },
  ]);
});

describe('GET /api/analytics/summary', () => {
  it('answers 401 without an admin session', async () => {
    const response = await ctx.app.request('/api/analytics/summary');
    expect(response.status).toBe(401);
  });

  it('counts page views, the top lists over 7 days and the events of the last 24 hours', async () => {
    const body = await summary();
    expect(body).toMatchObject({
      totalPageViews: 22,
      pageViewsLast24Hours: 6,
      // '/' stays '/': "Home Page" is only the tab's label for it.
      topPages: [
        { path: '/', count: 5 },
        { path: '/booking', count: 3 },
        { path: '/about', count: 1 },
        { path: '/gallery', count: 1 },
      ],
      topCountries: [
        { country: 'United Kingdom', count: 7 },
        { country: 'France', count: 1 },
        { country: 'Ireland', count: 1 },
      ],
      topCities: [
        { city: 'London', count: 5 },
        { city: 'Manchester', count: 2 },
        { city: 'Dublin', count: 1 },
      ],
      recentEvents: [
        { eventName: 'booking_started', count: 2 },
        { eventName: 'booking_submitted', count: 1 },
      ],
    });
  });

  it('gives 30 London days of page views, oldest first, with empty days as 0', async () => {
    const { dailyPageViews } = (await summary()) as { dailyPageViews: { date: string; count: number }[] };
    expect(dailyPageViews).toHaveLength(30);
    expect(dailyPageViews[0]!.date).toBe('2026-10-24');
    expect(dailyPageViews.at(-1)).toEqual({ date: '2026-11-22', count: 5 });
    const counts = Object.fromEntries(dailyPageViews.map((day) => [day.date, day.count]));
    expect(counts).toMatchObject({ '2026-11-21': 3, '2026-11-16': 1, '2026-11-15': 1, '2026-11-14': 5, '2026-11-20': 0 });
    expect(dailyPageViews.reduce((sum, day) => sum + day.count, 0)).toBe(15);
  });

  it('counts by the London calendar day in summer time', async () => {
    // 23:30 UTC on 1 July is 00:30 on 2 July in London (BST).
    ctx.setNow('2027-07-02T08:00:00Z');
    cookie = await adminCookie(ctx);
    await ctx.deps.db.insert(pageViews).values({ path: '/late', createdAt: new Date('2027-07-01T23:30:00Z') });
    const { dailyPageViews, pageViewsLast24Hours } = await summary();
    ctx.setNow(NOW);
    cookie = await adminCookie(ctx);
    expect(pageViewsLast24Hours).toBe(1);
    expect(dailyPageViews.at(-1)).toEqual({ date: '2027-07-02', count: 1 });
    expect(dailyPageViews.at(-2)).toEqual({ date: '2027-07-01', count: 0 });
  });
});

describe('POST /api/analytics/event', () => {
  it.each(ANALYTICS_EVENTS)('accepts %s', async (eventName) => {
    const response = await ctx.app.request('/api/analytics/event', jsonRequest({ eventName, path: '/booking' }, { headers: { 'X-Forwarded-For': '198.51.100.20' } }));
    expect(response.status).toBe(204);
  });

  it.each(['tick', 'BOOKING_STARTED', '', 'booking_started; drop table'])('refuses %j with 400', async (eventName) => {
    const response = await ctx.app.request('/api/analytics/event', jsonRequest({ eventName }, { headers: { 'X-Forwarded-For': '198.51.100.21' } }));
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe('Unknown event name');
  });
});
