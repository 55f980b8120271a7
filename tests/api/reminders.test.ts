import { describe, expect, it } from 'vitest';
import { eq, like } from 'drizzle-orm';
import { bookings, emailOutbox } from '../../db/schema.ts';
import { sendInstallationReminders } from '../../src/server/services/bookings/reminders.ts';
import { createTestContext } from '../setup/test-app.ts';
import { formatLongDate } from '../../src/domain/format.ts';

const ctx = await createTestContext();

async function booking(email: string, preferredDate: string, extra: Partial<typeof bookings.$inferInsert> = {}) {
  const [row] = await ctx.deps.db
    .insert(bookings)
    .values({
      firstName: 'Maya', lastName: 'Patel', email, phone: '0161 496 0202', quantity: 10, locationAddress: 'Deansgate, Manchester M3 2BW; King Street, Manchester M2 4WU',
      workType: 'night', preferredDate, totalPricePence: 79900, status: 'confirmed', paymentStatus: 'paid', ...extra,
    })
    .returning();
  return row!;
}

const remindersTo = (email: string) => ctx.deps.db.select().from(emailOutbox).where(eq(emailOutbox.to, email));

describe('day-before installation reminders', () => {
  it('reminds a paid booking on the London day before, once however often the job runs', async () => {
    const paid = await booking('maya@patelbakery.co.uk', '2026-12-01');
    await booking('unpaid@patelbakery.co.uk', '2026-12-01', { paymentStatus: 'unpaid', status: 'pending' });
    await booking('cancelled@patelbakery.co.uk', '2026-12-01', { status: 'cancelled' });
    const evening = new Date('2026-11-30T23:30:00Z'); // 23:30 in London (GMT)
    await sendInstallationReminders(ctx.deps, evening);
    await sendInstallationReminders(ctx.deps, new Date('2026-11-30T09:00:00Z'));
    const mail = await remindersTo(paid.email);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toContain('Tomorrow');
    expect(mail[0]!.text).toContain(formatLongDate('2026-12-01'));
    expect(mail[0]!.text).toContain('overnight, 6pm - 6am');
    expect(await remindersTo('unpaid@patelbakery.co.uk')).toEqual([]);
    expect(await remindersTo('cancelled@patelbakery.co.uk')).toEqual([]);
  });

  it('follows the installation date when staff set one, and a moved date gets its own reminder', async () => {
    const moved = await booking('moved@patelbakery.co.uk', '2027-07-15', { installationDate: new Date('2027-07-17T08:00:00Z') });
    // 00:30 on 15 July in London (BST) is still 14 July in UTC: tomorrow is the 16th, not the 15th.
    expect(await sendInstallationReminders(ctx.deps, new Date('2027-07-14T23:30:00Z'))).toBe(0);
    await sendInstallationReminders(ctx.deps, new Date('2027-07-16T10:00:00Z'));
    expect(await remindersTo(moved.email)).toHaveLength(1);
    await ctx.deps.db.update(bookings).set({ installationDate: new Date('2027-07-20T08:00:00Z') }).where(eq(bookings.id, moved.id));
    await sendInstallationReminders(ctx.deps, new Date('2027-07-19T10:00:00Z'));
    expect(await remindersTo(moved.email)).toHaveLength(2);
  });

  it('escapes customer text in the HTML part', async () => {
    const risky = await booking('risky@patelbakery.co.uk', '2027-08-02', { firstName: '<img src=x onerror=alert(1)>' });
    await sendInstallationReminders(ctx.deps, new Date('2027-08-01T12:00:00Z'));
    const [mail] = await ctx.deps.db.select().from(emailOutbox).where(like(emailOutbox.dedupeKey, `installation-reminder:${risky.id}:%`));
    expect(mail!.html).not.toContain('<img src=x');
    expect(mail!.html).toContain('&lt;img src=x');
  });
});
