import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { analyticsEvents, bookings, channelLogs, contactEnquiries, emailOutbox, pageViews, photos } from '../../db/schema.ts';
import { applyRetention } from '../../src/server/services/privacy/retention.ts';
import { runMaintenance } from '../../src/server/services/jobs/maintenance.ts';
import { createTestContext } from '../setup/test-app.ts';

const ctx = await createTestContext();
const NOW = new Date('2026-11-23T03:00:00Z');

async function booking(createdAt: string, preferredDate: string) {
  const [row] = await ctx.deps.db
    .insert(bookings)
    .values({
      firstName: 'Rhys', lastName: 'Evans', email: `rhys.${createdAt}@evanscoffee.co.uk`, phone: '0161 496 0101', quantity: 5,
      locationAddress: 'King Street, Manchester M2 4WU', workType: 'day', preferredDate, totalPricePence: 34900,
      createdAt: new Date(createdAt), updatedAt: new Date(createdAt),
    })
    .returning({ id: bookings.id });
  return row!.id;
}

describe('retention', () => {
  it('deletes bookings after 7 years, communications after 3, analytics after 26 months, and nothing younger', async () => {
    const expired = await booking('2019-06-01T10:00:00Z', '2019-07-15');
    const bookedFarAhead = await booking('2019-06-01T10:00:00Z', '2020-07-15');
    const recent = await booking('2025-01-10T10:00:00Z', '2025-07-15');
    await ctx.deps.files.put('photo-old.png', new Uint8Array([1, 2, 3]), 'image/png');
    await ctx.deps.db.insert(photos).values({
      bookingId: expired, fileName: 'photo-old.png', originalName: 'after.png', photoType: 'after', step: 5, fileSize: 3, mimeType: 'image/png',
    });
    await ctx.deps.db.insert(contactEnquiries).values([
      { firstName: 'Old', lastName: 'Enquiry', email: 'old@enquiry.co.uk', inquiryType: 'General Inquiry', message: 'Asked long ago.', createdAt: new Date('2023-11-01T00:00:00Z') },
      { firstName: 'New', lastName: 'Enquiry', email: 'new@enquiry.co.uk', inquiryType: 'General Inquiry', message: 'Asked this year.', createdAt: new Date('2026-01-01T00:00:00Z') },
    ]);
    await ctx.deps.db.insert(emailOutbox).values({ kind: 'x', to: 'a@b.co.uk', subject: 's', text: 't', createdAt: new Date('2023-01-01T00:00:00Z') });
    await ctx.deps.db.insert(channelLogs).values({ channel: 'booking', action: 'old', timestamp: new Date('2023-01-01T00:00:00Z') });
    await ctx.deps.db.insert(pageViews).values([
      { path: '/', createdAt: new Date('2024-09-01T00:00:00Z') },
      { path: '/pricing', createdAt: new Date('2024-10-01T00:00:00Z') },
    ]);
    await ctx.deps.db.insert(analyticsEvents).values({ eventName: 'booking_started', createdAt: new Date('2024-01-01T00:00:00Z') });

    const counts = await applyRetention(ctx.deps, NOW);
    expect(counts).toMatchObject({ bookings: 1, files: 1, enquiries: 1, emails: 1, pageViews: 1, events: 1 });
    const left = (await ctx.deps.db.select({ id: bookings.id }).from(bookings)).map((row) => row.id);
    expect(left).toContain(bookedFarAhead);
    expect(left).toContain(recent);
    expect(left).not.toContain(expired);
    expect(await ctx.deps.files.get('photo-old.png')).toBeNull();
    expect((await ctx.deps.db.select().from(contactEnquiries)).map((row) => row.firstName)).toEqual(['New']);
    expect((await ctx.deps.db.select().from(pageViews)).map((row) => row.path)).toEqual(['/pricing']);
    const [log] = await ctx.deps.db.select().from(channelLogs).where(eq(channelLogs.action, 'retention_applied'));
    expect(log?.details).toContain('1 bookings');

    // A second run finds nothing more.
    const again = await applyRetention(ctx.deps, NOW);
    expect(Object.values(again).every((count) => count === 0)).toBe(true);
  });

  it('runs as part of the hourly maintenance', async () => {
    await booking('2018-01-01T10:00:00Z', '2018-07-15');
    const result = await runMaintenance(ctx.deps, NOW);
    expect(result.failedSteps).toEqual([]);
    expect(result.counts.retentionDeleted).toBeGreaterThanOrEqual(1);
    const old = await ctx.deps.db.select({ id: bookings.id }).from(bookings).where(sql`${bookings.createdAt} < '2019-01-01'`);
    expect(old).toEqual([]);
  });
});
