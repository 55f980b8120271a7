import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { bookings, channelLogs, emailOutbox, workers } from '../../db/schema.ts';
import { insertCrewLink } from '../../src/server/services/crew/crew-links.ts';
import { dayRoutes } from '../../src/server/services/crew/day-routes.ts';
import { sendInstallationReminders } from '../../src/server/services/bookings/reminders.ts';
import { insertRoutableBooking, scheduledFor } from '../fixtures/routable-bookings.ts';
import { adminCookie, adminRequest } from '../setup/admin.ts';
import { readInvite } from '../setup/ical.ts';
import { createTestContext } from '../setup/test-app.ts';

// api.md "Schedule and weather days": a booking's day is one fact (installation date in London,
// else the preferred date), and every reader follows it when staff move it; days have their own
// capacity; staff reschedule one booking. Weather days and the customer's link: weather-days.test.ts.

const ctx = await createTestContext();
const db = ctx.deps.db;
let staff: string;
let viewer: string;
beforeAll(async () => {
  ctx.setNow('2027-07-01T09:00:00Z');
  staff = await adminCookie(ctx, 'staff');
  viewer = await adminCookie(ctx, 'viewer');
});

const put = (date: string, body: unknown, cookie = staff) =>
  ctx.app.request(`/api/admin/schedule/days/${date}`, adminRequest(cookie, { method: 'PUT', body }));
const reschedule = (id: number, date: string, cookie = staff) =>
  ctx.app.request(`/api/admin/bookings/${id}/reschedule`, adminRequest(cookie, { method: 'POST', body: { date } }));
async function schedule(from: string, to: string, cookie = staff) {
  const response = await ctx.app.request(`/api/admin/schedule?from=${from}&to=${to}`, adminRequest(cookie));
  expect(response.status).toBe(200);
  return (await response.json()).days as { date: string; capacity: number; booked: number; paid: number; unpaid: number; closed: boolean; reason?: string; bookings: { id: number }[] }[];
}
async function unavailable(): Promise<string[]> {
  return (await (await ctx.app.request('/api/bookings/unavailable-dates')).json()).unavailableDates;
}
async function inviteMail(id: number) {
  return db.select().from(emailOutbox).where(and(eq(emailOutbox.bookingId, id), like(emailOutbox.kind, 'installation-%'))).orderBy(emailOutbox.id);
}
const icsOf = (row: { attachments: { content: string }[] | null }) => Buffer.from(row.attachments![0]!.content, 'base64').toString('utf8');

describe('every reader of the day follows one move', () => {
  it('capacity, unavailable dates, schedule, crew day and link, projects list, reminder and invite all move with the booking', async () => {
    const from = '2027-07-14';
    const to = '2027-07-15';
    const id = await insertRoutableBooking(db, { ...scheduledFor(from), paymentStatus: 'paid', firstName: 'Moved' });
    // Each day holds 10 patches: the booking fills the 14th.
    expect((await put(from, { capacity: 10 })).status).toBe(200);
    expect((await put(to, { capacity: 10 })).status).toBe(200);
    expect(await unavailable()).toContain(from);
    expect(await unavailable()).not.toContain(to);
    const [worker] = await db.insert(workers).values({ email: 'crew@example.com', name: 'Sam' }).returning();
    const link = await insertCrewLink(db, worker!.id, from, ctx.deps.now());
    ctx.setNow('2027-07-14T08:00:00Z');
    const crewStops = async (token: string) =>
      ((await (await ctx.app.request('/api/crew/day', { headers: { Authorization: `Bearer ${token}` } })).json()).stops as { bookingId: number }[]).map(
        (stop) => stop.bookingId,
      );
    expect(await crewStops(link)).toContain(id);
    ctx.setNow('2027-07-01T09:00:00Z');

    const moved = await reschedule(id, to);
    expect(moved.status).toBe(200);
    await ctx.deps.background.idle();

    // Capacity and the customers' unavailable dates.
    expect(await unavailable()).toContain(to);
    expect(await unavailable()).not.toContain(from);
    // The Schedule.
    const [day14, day15] = await schedule(from, to);
    expect(day14!.bookings.map((booking) => booking.id)).not.toContain(id);
    expect(day15).toMatchObject({ date: to, capacity: 10, booked: 10, paid: 10, unpaid: 0 });
    expect(day15!.bookings.map((booking) => booking.id)).toContain(id);
    // Routes, the 6 PM e-mail's and the Locations day view's one rule.
    const stopsOn = async (date: string) => (await dayRoutes(db, date)).flatMap((route) => route.stops.map((stop) => stop.booking.id));
    expect(await stopsOn(from)).not.toContain(id);
    expect(await stopsOn(to)).toContain(id);
    // The old day's crew link no longer shows the stop.
    ctx.setNow('2027-07-14T08:00:00Z');
    expect(await crewStops(link)).not.toContain(id);
    ctx.setNow('2027-07-01T09:00:00Z');
    // The Projects list's day.
    const projects = async (date: string) =>
      ((await (await ctx.app.request(`/api/admin/projects?date=${date}`, adminRequest(staff))).json()) as { id: number }[]).map((row) => row.id);
    expect(await projects(from)).not.toContain(id);
    expect(await projects(to)).toContain(id);
    // The day-before reminder goes for the new day, not the old one.
    ctx.setNow('2027-07-13T09:00:00Z');
    await sendInstallationReminders(ctx.deps, ctx.deps.now());
    expect((await inviteMail(id)).filter((row) => row.kind === 'installation-reminder')).toEqual([]);
    ctx.setNow('2027-07-14T09:00:00Z');
    await sendInstallationReminders(ctx.deps, ctx.deps.now());
    expect((await inviteMail(id)).filter((row) => row.kind === 'installation-reminder')).toHaveLength(1);
    ctx.setNow('2027-07-01T09:00:00Z');
    // The calendar invite: one e-mail, the same UID at a higher SEQUENCE, on the new day.
    const rescheduled = (await inviteMail(id)).filter((row) => row.kind === 'installation-rescheduled');
    expect(rescheduled).toHaveLength(1);
    const invite = readInvite(icsOf(rescheduled[0]!));
    expect(invite.uid).toBe(`booking-${id}@localhost`);
    expect(invite.sequence).toBe(1);
    expect(invite.start.toISOString().slice(0, 10)).toBe(to);
    // The booking's history names the move and who made it.
    const [log] = await db.select().from(channelLogs).where(and(eq(channelLogs.action, 'booking_rescheduled'), eq(channelLogs.entityId, String(id))));
    expect(log!.details).toBe(`Booking #${id} moved from ${from} to ${to}`);
    // The same move again changes nothing and sends nothing.
    expect((await reschedule(id, to)).status).toBe(200);
    expect((await inviteMail(id)).filter((row) => row.kind === 'installation-rescheduled')).toHaveLength(1);
  });
});

describe('days have their own capacity', () => {
  it('a lower capacity fills the day sooner; never below what is paid (409 saying how many to move)', async () => {
    const date = '2027-07-20';
    await insertRoutableBooking(db, { preferredDate: date, paymentStatus: 'paid' });
    await insertRoutableBooking(db, { preferredDate: date, paymentStatus: 'paid' });
    const refused = await put(date, { capacity: 15, reason: 'One crew' });
    expect(refused.status).toBe(409);
    expect((await refused.json()).error).toBe('This day already has 20 paid patches, more than a capacity of 15. Move 5 paid patches to another day first.');
    expect((await schedule(date, date))[0]!.capacity).toBe(40);

    const set = await put(date, { capacity: 20, reason: 'One crew' });
    expect(set.status).toBe(200);
    expect(await set.json()).toMatchObject({ date, capacity: 20, booked: 20, paid: 20, closed: false, reason: 'One crew' });
    expect(await unavailable()).toContain(date);
    // Back to the default: the day's own row goes.
    expect(await (await put(date, { capacity: 40 })).json()).toMatchObject({ capacity: 40, closed: false });
    expect(await unavailable()).not.toContain(date);
  });

  it('0 closes a day with its reason; the blocked-dates calls read and write the same closed day', async () => {
    const date = '2027-07-22';
    expect((await put(date, { capacity: 0, reason: 'Bank holiday' })).status).toBe(200);
    const blocked = (await (await ctx.app.request('/api/admin/blocked-dates', adminRequest(viewer))).json()) as { date: string; reason: string }[];
    expect(blocked).toContainEqual(expect.objectContaining({ date, reason: 'Bank holiday' }));
    expect((await schedule(date, date))[0]).toMatchObject({ closed: true, capacity: 0, reason: 'Bank holiday' });
    expect((await ctx.app.request(`/api/admin/blocked-dates/${date}`, adminRequest(staff, { method: 'DELETE' }))).status).toBe(204);
    expect((await schedule(date, date))[0]).toMatchObject({ closed: false, capacity: 40 });
  });

  it('refuses bad input with 400 and a range past 62 days', async () => {
    expect((await put('2027-07-23', { capacity: -1 })).status).toBe(400);
    expect((await put('2027-07-23', { capacity: 1.5 })).status).toBe(400);
    expect((await put('not-a-date', { capacity: 10 })).status).toBe(400);
    expect((await ctx.app.request('/api/admin/schedule?from=2027-07-01&to=2027-09-01', adminRequest(staff))).status).toBe(400);
    expect((await ctx.app.request('/api/admin/schedule?from=2027-07-01&to=2027-08-31', adminRequest(staff))).status).toBe(200);
  });
});

describe('staff reschedule one booking', () => {
  it('409 with the reason for a closed day or one without room; 400 for a past day; viewers read only', async () => {
    const id = await insertRoutableBooking(db, { preferredDate: '2027-08-02', paymentStatus: 'paid' });
    await put('2027-08-03', { capacity: 0, reason: 'Team training' });
    const closed = await reschedule(id, '2027-08-03');
    expect(closed.status).toBe(409);
    expect((await closed.json()).error).toBe('3 August 2027 is closed (Team training). Please choose another day.');

    await put('2027-08-04', { capacity: 15 });
    await insertRoutableBooking(db, { preferredDate: '2027-08-04', paymentStatus: 'paid' });
    const full = await reschedule(id, '2027-08-04');
    expect(full.status).toBe(409);
    expect((await full.json()).error).toBe('4 August 2027 has room for 5 more patches, and this booking has 10. Please choose another day.');

    expect((await reschedule(id, '2027-06-30')).status).toBe(400);
    expect((await reschedule(id, '2027-08-05', viewer)).status).toBe(403);
    const [row] = await db.select().from(bookings).where(eq(bookings.id, id));
    expect(row!.preferredDate).toBe('2027-08-02');
    expect(await inviteMail(id)).toEqual([]);
    // A viewer reads the schedule.
    expect((await schedule('2027-08-02', '2027-08-02', viewer))[0]!.bookings.map((booking) => booking.id)).toContain(id);
  });

  it('a day planned in the progress dialog is judged as a Schedule move: 409 closed or full, a past day recorded as given', async () => {
    const id = await insertRoutableBooking(db, { ...scheduledFor('2027-08-16'), paymentStatus: 'paid' });
    const progress = (body: unknown) =>
      ctx.app.request(`/api/admin/bookings/${id}/progress`, adminRequest(staff, { method: 'PATCH', body: { currentStep: 3, ...(body as object) } }));
    await put('2027-08-17', { capacity: 0, reason: 'Team training' });
    const closed = await progress({ installationDate: '2027-08-17T09:00:00Z' });
    expect(closed.status).toBe(409);
    expect((await closed.json()).error).toBe('17 August 2027 is closed (Team training). Please choose another day.');

    await put('2027-08-18', { capacity: 15 });
    await insertRoutableBooking(db, { preferredDate: '2027-08-18', paymentStatus: 'paid' });
    const full = await progress({ installationDate: '2027-08-18T09:00:00Z' });
    expect(full.status).toBe(409);
    expect((await full.json()).error).toBe('18 August 2027 has room for 5 more patches, and this booking has 10. Please choose another day.');
    // Nothing moved, nobody was told.
    const [kept] = await db.select().from(bookings).where(eq(bookings.id, id));
    expect(kept!.installationDate!.toISOString()).toBe('2027-08-16T10:00:00.000Z');
    expect(await inviteMail(id)).toEqual([]);

    // A day with room moves it; the same day at another time is no move and always fits.
    expect((await progress({ installationDate: '2027-08-19T08:00:00Z' })).status).toBe(200);
    await put('2027-08-19', { capacity: 10 });
    expect((await progress({ installationDate: '2027-08-19T13:00:00Z' })).status).toBe(200);
    // Staff recording a day already past (when the work really happened) take no room.
    const recorded = await ctx.app.request(
      `/api/admin/bookings/${id}/progress`,
      adminRequest(staff, { method: 'PATCH', body: { currentStep: 4, installationDate: '2027-06-29T09:00:00Z' } }),
    );
    expect(recorded.status).toBe(200);
  });

  it('an unpaid booking is listed and marked but holds no room; a completed project is off the day', async () => {
    const date = '2027-08-10';
    const hold = await insertRoutableBooking(db, { preferredDate: date });
    await db.update(bookings).set({ createdAt: ctx.deps.now() }).where(eq(bookings.id, hold));
    await insertRoutableBooking(db, { preferredDate: date, paymentStatus: 'paid', currentStep: 5, status: 'completed' });
    const [day] = await schedule(date, date);
    // The customer who pays first gets the day: the unpaid booking is on the day's list, not its room.
    expect(day).toMatchObject({ booked: 10, paid: 0, unpaid: 10, held: 0 });
    expect(day!.bookings).toEqual([expect.objectContaining({ id: hold, paymentStatus: 'unpaid', region: 'Greater Manchester', step: 1 })]);
  });
});
