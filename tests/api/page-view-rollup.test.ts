import { beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { pageViewDaily, pageViews, rollupWatermarks } from '../../db/schema.ts';
import { analyticsSummary, type AnalyticsSummary } from '../../src/server/services/analytics/analytics-summary.ts';
import { readRollupWatermark, rollUpPageViews } from '../../src/server/services/analytics/page-view-rollup.ts';
import { applyRetention } from '../../src/server/services/privacy/retention.ts';
import { createTestContext } from '../setup/test-app.ts';

const ctx = await createTestContext();
const db = ctx.deps.db;
const HOUR = 60 * 60 * 1000;

/** The summary counted from page_views alone, as before any roll-up: the watermark hidden in a transaction undone after. */
async function rawSummary(now: Date): Promise<AnalyticsSummary> {
  let summary: AnalyticsSummary | undefined;
  await db
    .transaction(async (tx) => {
      await tx.delete(rollupWatermarks);
      summary = await analyticsSummary(tx as unknown as Database, now);
      throw new Error('undo');
    })
    .catch((error: Error) => {
      if (error.message !== 'undo') throw error;
    });
  return summary!;
}

const view = (path: string, at: Date | string, geo: { country?: string; city?: string } = {}) => ({
  path,
  createdAt: new Date(at),
  country: geo.country ?? null,
  city: geo.city ?? null,
});

/** Views around every edge the summary has: 24 hours, 7 days, the 30-day chart, London midnights. */
function viewsAround(now: Date) {
  const ago = (hours: number) => new Date(now.getTime() - hours * HOUR);
  return [
    view('/', ago(0.5), { country: 'United Kingdom', city: 'London' }),
    view('/booking', ago(3), { country: 'United Kingdom', city: 'Leeds' }),
    view('/', ago(23.9), { country: 'Ireland', city: 'Dublin' }),
    view('/gallery', ago(24.1), { country: 'Ireland', city: 'Dublin' }),
    view('/pricing', ago(26), { country: 'France' }),
    view('/pricing', ago(7 * 24 - 0.2), { country: 'France', city: 'Paris' }),
    view('/about', ago(7 * 24 + 0.2), { country: 'Germany', city: 'Berlin' }),
    view('/about', ago(9 * 24), { country: 'Germany', city: 'Berlin' }),
    view('/terms', ago(29 * 24 + 5)),
    view('/terms', ago(31 * 24)),
    view('/', ago(400 * 24), { country: 'United Kingdom', city: 'London' }),
  ];
}

beforeEach(async () => {
  await db.execute(sql`truncate page_views, page_view_daily, rollup_watermarks`);
});

describe('daily page-view roll-up', () => {
  it('gives the same summary as the raw rows, today and the last 24 hours included', async () => {
    const now = new Date('2026-11-22T10:00:00Z');
    await db.insert(pageViews).values(viewsAround(now));
    const raw = await rawSummary(now);
    expect(raw.totalPageViews).toBe(11);

    expect(await rollUpPageViews(db, now)).toBe('2026-11-21');
    expect((await db.select().from(pageViewDaily)).length).toBeGreaterThan(0);
    expect(await analyticsSummary(db, now)).toEqual(raw);
  });

  it('counts days after the last roll-up from the raw rows until the job catches up', async () => {
    const rolledAt = new Date('2026-11-22T10:00:00Z');
    await db.insert(pageViews).values(viewsAround(rolledAt));
    await rollUpPageViews(db, rolledAt);
    // Three days later, the job has not run again and new views arrived meanwhile (page views
    // are stamped when written, so they only ever land after the rolled-up days).
    const later = new Date('2026-11-25T18:45:00Z');
    const ago = (hours: number) => new Date(later.getTime() - hours * HOUR);
    await db.insert(pageViews).values([
      view('/', ago(0.5), { country: 'United Kingdom', city: 'London' }),
      view('/booking', ago(23.9), { country: 'Ireland', city: 'Dublin' }),
      view('/booking', ago(24.1), { country: 'Ireland' }),
      view('/contact', ago(60), { city: 'Leeds' }),
    ]);
    const rolled = await analyticsSummary(db, later);
    expect(rolled).toEqual(await rawSummary(later));
    expect(rolled.totalPageViews).toBe(15);

    await rollUpPageViews(db, later);
    expect(await readRollupWatermark(db)).toBe('2026-11-24');
    expect(await analyticsSummary(db, later)).toEqual(await rawSummary(later));
  });

  it('counts London days in summer time, and leaves a day alone until it has been over for an hour', async () => {
    // 00:30 on 2 July in London (BST): 1 July ended only half an hour ago.
    const now = new Date('2027-07-01T23:30:00Z');
    await db.insert(pageViews).values([
      view('/late', '2027-07-01T23:10:00Z'), // 00:10 on 2 July in London
      view('/evening', '2027-07-01T22:50:00Z'), // 23:50 on 1 July
      view('/early', '2027-06-30T23:05:00Z'), // 00:05 on 1 July
      ...viewsAround(now),
    ]);
    expect(await rollUpPageViews(db, now)).toBe('2027-06-30');
    const summary = await analyticsSummary(db, now);
    expect(summary).toEqual(await rawSummary(now));
    expect(summary.dailyPageViews.at(-1)).toEqual({ date: '2027-07-02', count: 2 });

    // The same hour again rolls nothing new.
    expect(await rollUpPageViews(db, now)).toBe('2027-06-30');
    expect(await analyticsSummary(db, now)).toEqual(summary);
  });

  it('is cut by retention with the raw rows, recounting the day the cutoff falls in', async () => {
    const now = new Date('2026-11-23T03:00:00Z');
    // The analytics cutoff is 2024-09-23T03:00Z: 02:00 and 05:00 that day fall either side of it.
    await db.insert(pageViews).values([
      view('/gone', '2024-09-20T12:00:00Z'),
      view('/gone', '2024-09-23T01:00:00Z'),
      view('/kept', '2024-09-23T05:00:00Z'),
      view('/kept', '2024-09-24T05:00:00Z'),
      ...viewsAround(now),
    ]);
    await rollUpPageViews(db, now);
    const counts = await applyRetention({ db, files: ctx.deps.files, log: ctx.deps.log, env: ctx.deps.env }, now);
    // 20 September is wholly past: its total and its one path go.
    expect(counts).toMatchObject({ pageViews: 2, pageViewDays: 2 });

    const summary = await analyticsSummary(db, now);
    expect(summary).toEqual(await rawSummary(now));
    expect(summary.totalPageViews).toBe(13);
    const days = await db
      .select({ day: pageViewDaily.day, dimension: pageViewDaily.dimension, value: pageViewDaily.value, views: pageViewDaily.views })
      .from(pageViewDaily)
      .orderBy(pageViewDaily.dimension);
    expect(days.filter((row) => row.day <= '2024-09-23')).toEqual([
      { day: '2024-09-23', dimension: 'path', value: '/kept', views: 1 },
      { day: '2024-09-23', dimension: 'total', value: '', views: 1 },
    ]);
  });
});
