import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { bookings, channelLogs, crewLinks, emailOutbox, workers } from '../../db/schema.ts';
import { insertCrewLink } from '../../src/server/services/crew/crew-links.ts';
import { addForecast } from '../../src/server/services/schedule/schedule-forecast.ts';
import type { ScheduleDay } from '../../src/server/services/schedule/schedule-days.ts';
import { startFakeHttpServer } from '../fixtures/fake-http-server.ts';
import { insertRoutableBooking, scheduledFor } from '../fixtures/routable-bookings.ts';
import { bookingPayload, freshClient } from '../fixtures/bookings.ts';
import { adminCookie, adminRequest } from '../setup/admin.ts';
import { readInvite } from '../setup/ical.ts';
import { createTestContext, jsonRequest } from '../setup/test-app.ts';

// api.md "Schedule and weather days": a rain day's preview changes nothing; its confirmation moves
// every booking once (paid first, a region together), e-mails each customer once with the updated
// invite and a link to choose another day, ends the day's crew links, and is idempotent. The
// customer's link works once and ends on the installation day. The forecast against a fake API.

const ctx = await createTestContext();
const db = ctx.deps.db;
const NOW = '2027-07-01T09:00:00Z';
let staff: string;
beforeAll(async () => {
  ctx.setNow(NOW);
  staff = await adminCookie(ctx, 'staff');
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) => {
  const init = adminRequest(staff, { method: 'POST', body });
  return ctx.app.request(path, { ...init, headers: { ...(init.headers as Record<string, string>), ...headers } });
};
const put = (date: string, body: unknown) => ctx.app.request(`/api/admin/schedule/days/${date}`, adminRequest(staff, { method: 'PUT', body }));
const dayOf = async (id: number) => {
  const [row] = await db.select().from(bookings).where(eq(bookings.id, id));
  return row!.installationDate ? row!.installationDate.toISOString().slice(0, 10) : row!.preferredDate;
};
const mailOf = (ids: number[]) => db.select().from(emailOutbox).where(and(inArray(emailOutbox.bookingId, ids), eq(emailOutbox.kind, 'installation-weather-moved')));
const LEEDS = { postcode: 'LS1', region: 'West Yorkshire', pins: [{ address: 'Briggate, Leeds LS1 6HD', lat: 53.797, lng: -1.542 }] };

/** Minutes before NOW, so "oldest first" is clear. */
async function aged(id: number, minutes: number) {
  await db.update(bookings).set({ createdAt: new Date(new Date(NOW).getTime() - minutes * 60_000) }).where(eq(bookings.id, id));
  return id;
}

describe('a weather day', () => {
  const rainDay = '2027-07-14';
  let paidOld: number, paidNew: number, unpaidHold: number, leeds: number, bigOne: number;

  beforeAll(async () => {
    paidNew = await aged(await insertRoutableBooking(db, { ...scheduledFor(rainDay), paymentStatus: 'paid', firstName: 'Paid new' }), 300);
    paidOld = await aged(await insertRoutableBooking(db, { preferredDate: rainDay, paymentStatus: 'paid', firstName: 'Paid old' }), 900);
    unpaidHold = await aged(await insertRoutableBooking(db, { preferredDate: rainDay, firstName: 'Unpaid hold' }), 10);
    leeds = await aged(await insertRoutableBooking(db, { preferredDate: rainDay, paymentStatus: 'paid', firstName: 'Leeds', ...LEEDS }), 100);
    // 30 patches: fits on no day of the window below.
    bigOne = await aged(await insertRoutableBooking(db, { preferredDate: rainDay, paymentStatus: 'paid', firstName: 'Big' }), 50);
    await db.update(bookings).set({ quantity: 30 }).where(eq(bookings.id, bigOne));
    // The next days: the 15th is closed, the 16th has room for 25 patches, the 17th for 10.
    await put('2027-07-15', { capacity: 0, reason: 'Bank holiday' });
    await put('2027-07-16', { capacity: 25 });
    for (let day = 17; day <= 28; day++) await put(`2027-07-${day}`, { capacity: 10 });
  });

  it('previews paid first then oldest, a region together on the earliest day with room, the rest listed; changes nothing', async () => {
    const response = await post('/api/admin/weather-days/preview', { date: rainDay });
    expect(response.status).toBe(200);
    const preview = await response.json();
    // Greater Manchester: 3 bookings of 10 (30 > 25) do not fit together anywhere, so each goes
    // to the earliest day with room: paid old and paid new on the 16th, the unpaid hold on the 17th.
    // Big (30) fits nowhere; Leeds goes alone to the earliest day left with room.
    expect(preview.moves).toEqual([
      { bookingId: paidOld, businessName: 'Paid old Khan', region: 'Greater Manchester', from: rainDay, to: '2027-07-16' },
      { bookingId: paidNew, businessName: 'Paid new Khan', region: 'Greater Manchester', from: rainDay, to: '2027-07-16' },
      { bookingId: unpaidHold, businessName: 'Unpaid hold Khan', region: 'Greater Manchester', from: rainDay, to: '2027-07-17' },
      { bookingId: leeds, businessName: 'Leeds Khan', region: 'West Yorkshire', from: rainDay, to: '2027-07-18' },
    ]);
    expect(preview.unplaced).toEqual([{ bookingId: bigOne, reason: 'No day in the next 14 days has room for its 30 patches.' }]);
    expect(await dayOf(paidOld)).toBe(rainDay);
    expect(await mailOf([paidOld, paidNew, unpaidHold, leeds])).toEqual([]);
  });

  it('confirms once for two staff at once and for the same key again: moves, e-mails, closes, ends crew links, logs', async () => {
    const [worker] = await db.insert(workers).values({ email: 'rain-crew@example.com', name: 'Jo' }).returning();
    const token = await insertCrewLink(db, worker!.id, rainDay, ctx.deps.now());
    const [first, second] = await Promise.all([
      post('/api/admin/weather-days', { date: rainDay }, { 'Idempotency-Key': 'rain-1' }),
      post('/api/admin/weather-days', { date: rainDay }, { 'Idempotency-Key': 'rain-2' }),
    ]);
    expect([first.status, second.status].sort()).toEqual([201, 409]);
    const winner = first.status === 201 ? first : second;
    const loser = first.status === 201 ? second : first;
    expect((await loser.json()).error).toBe(`A weather day for ${rainDay} in those regions was already confirmed; nothing was moved again.`);
    const body = await winner.json();
    expect(body.moves).toHaveLength(4);
    await ctx.deps.background.idle();

    expect(await dayOf(paidOld)).toBe('2027-07-16');
    expect(await dayOf(paidNew)).toBe('2027-07-16');
    expect(await dayOf(leeds)).toBe('2027-07-18');
    expect(await dayOf(bigOne)).toBe(rainDay);
    // One e-mail per moved customer, each in its booking's history, with the invite at a higher SEQUENCE.
    const mail = await mailOf([paidOld, paidNew, unpaidHold, leeds]);
    expect(mail.map((row) => row.bookingId).sort()).toEqual([paidOld, paidNew, unpaidHold, leeds].sort());
    const paidOldMail = mail.find((row) => row.bookingId === paidOld)!;
    expect(paidOldMail.text).toContain('rescheduled free of charge');
    expect(paidOldMail.text).toContain('16 July 2027');
    expect(paidOldMail.text).toMatch(/http:\/\/localhost:8888\/reschedule#[A-Za-z0-9_-]{32}/);
    const invite = readInvite(Buffer.from(paidOldMail.attachments![0]!.content, 'base64').toString('utf8'));
    expect(invite.sequence).toBe(1);
    expect(invite.start.toISOString().slice(0, 10)).toBe('2027-07-16');
    // The day is closed now (every region), and the crew's link for it has ended.
    const unavailable = (await (await ctx.app.request('/api/bookings/unavailable-dates')).json()).unavailableDates;
    expect(unavailable).toContain(rainDay);
    const [link] = await db.select().from(crewLinks).where(eq(crewLinks.workerId, worker!.id));
    expect(link!.revokedAt).not.toBeNull();
    ctx.setNow('2027-07-14T08:00:00Z');
    expect((await ctx.app.request('/api/crew/day', { headers: { Authorization: `Bearer ${token}` } })).status).toBe(410);
    ctx.setNow(NOW);
    // Logged with the person.
    const [log] = await db.select().from(channelLogs).where(eq(channelLogs.action, 'weather_day_confirmed'));
    expect(log!.userId).not.toBe('admin');
    expect(log!.details).toBe(`Weather day ${rainDay} (every region): 4 booking(s) moved, 1 left for staff, 1 crew link(s) ended`);

    // The same key again: the first answer, nothing moved or sent twice.
    const key = first.status === 201 ? 'rain-1' : 'rain-2';
    const replay = await post('/api/admin/weather-days', { date: rainDay }, { 'Idempotency-Key': key });
    expect(replay.status).toBe(201);
    expect(await replay.json()).toEqual(body);
    expect(await mailOf([paidOld, paidNew, unpaidHold, leeds])).toHaveLength(4);
    expect(await dayOf(paidOld)).toBe('2027-07-16');
  });

  it('a region-only rain day moves only that region, and refuses staff moves to a day without room as a whole', async () => {
    const day = '2027-08-02';
    const gm = await insertRoutableBooking(db, { preferredDate: day, paymentStatus: 'paid' });
    const ls = await insertRoutableBooking(db, { preferredDate: day, paymentStatus: 'paid', ...LEEDS });
    await put('2027-08-03', { capacity: 5 });
    const refused = await post('/api/admin/weather-days', { date: day, regions: ['West Yorkshire'], moves: [{ bookingId: ls, to: '2027-08-03' }] });
    expect(refused.status).toBe(409);
    expect(await dayOf(ls)).toBe(day);
    const done = await post('/api/admin/weather-days', { date: day, regions: ['West Yorkshire'], moves: [{ bookingId: ls, to: '2027-08-04' }] });
    expect(done.status).toBe(201);
    expect(await dayOf(ls)).toBe('2027-08-04');
    expect(await dayOf(gm)).toBe(day);
    // Closed for Leeds bookings only: the day is still open to everyone else.
    const [schedule] = (await (await ctx.app.request(`/api/admin/schedule?from=${day}&to=${day}`, adminRequest(staff))).json()).days;
    expect(schedule).toMatchObject({ closed: false, closedRegions: ['West Yorkshire'], reason: 'weather' });
    expect((await post('/api/admin/weather-days', { date: day, regions: ['West Yorkshire'] })).status).toBe(409);
    expect((await post('/api/admin/weather-days', { date: day, regions: ['Greater Manchester'] })).status).toBe(201);
  });
});

describe('a rain day closes the date for its regions only', () => {
  it('refuses a new booking in that region on that date and takes one elsewhere', async () => {
    const day = '2027-08-16';
    expect((await post('/api/admin/weather-days', { date: day, regions: ['West Yorkshire'] })).status).toBe(201);
    const leeds = 'Briggate, Leeds, West Yorkshire, England, LS1 6HD, United Kingdom';
    const inLeeds = await ctx.app.request(
      '/api/bookings',
      jsonRequest(bookingPayload({ preferredDate: day, locationAddress: leeds, locationCoordinates: [{ address: leeds, lat: 53.7973, lng: -1.5422 }] })),
      freshClient(),
    );
    expect(inLeeds.status).toBe(409);
    expect((await inLeeds.json()).error).toBe('Date Unavailable');
    const inManchester = await ctx.app.request('/api/bookings', jsonRequest(bookingPayload({ preferredDate: day })), freshClient());
    expect(inManchester.status).toBe(201);
    await ctx.deps.background.idle();
  });
});

describe("the customer's link", () => {
  async function linkFor(id: number): Promise<string> {
    const [row] = await db.select().from(emailOutbox).where(and(eq(emailOutbox.bookingId, id), eq(emailOutbox.kind, 'installation-weather-moved')));
    return /reschedule#([A-Za-z0-9_-]{32})/.exec(row!.text)![1]!;
  }

  it('offers the days with room, moves once with one e-mail, says plainly when a day filled, and ends on the day', async () => {
    const day = '2027-09-06';
    const a = await insertRoutableBooking(db, { preferredDate: day, paymentStatus: 'paid' });
    const b = await insertRoutableBooking(db, { preferredDate: day, paymentStatus: 'paid', ...LEEDS });
    ctx.setNow('2027-09-01T09:00:00Z');
    staff = await adminCookie(ctx, 'staff');
    expect((await post('/api/admin/weather-days', { date: day })).status).toBe(201);
    await ctx.deps.background.idle();
    const tokenA = await linkFor(a);
    const tokenB = await linkFor(b);

    const open = await ctx.app.request(`/api/reschedule/${tokenA}`);
    expect(open.status).toBe(200);
    const choice = await open.json();
    expect(choice).toMatchObject({ bookingId: a, businessName: 'Amira Khan', currentDate: '2027-09-07' });
    expect(choice.dates[0]).toBe('2027-09-02');
    expect(choice.dates).not.toContain('2027-09-07');
    expect(choice.dates).not.toContain(day);
    expect(choice.dates).toHaveLength(12);

    // The 10th fills meanwhile: the customer is told, with the fresh list.
    await put('2027-09-10', { capacity: 5 });
    const filled = await ctx.app.request(`/api/reschedule/${tokenA}`, jsonRequest({ date: '2027-09-10' }));
    expect(filled.status).toBe(409);
    const filledBody = await filled.json();
    expect(filledBody.error).toBe('That day has just filled up. Please choose another of the days below.');
    expect(filledBody.dates).not.toContain('2027-09-10');

    const moved = await ctx.app.request(`/api/reschedule/${tokenA}`, jsonRequest({ date: '2027-09-09' }));
    expect(moved.status).toBe(200);
    expect(await moved.json()).toEqual({ date: '2027-09-09' });
    await ctx.deps.background.idle();
    expect(await dayOf(a)).toBe('2027-09-09');
    const rescheduled = await db.select().from(emailOutbox).where(and(eq(emailOutbox.bookingId, a), eq(emailOutbox.kind, 'installation-rescheduled')));
    expect(rescheduled).toHaveLength(1);
    expect(readInvite(Buffer.from(rescheduled[0]!.attachments![0]!.content, 'base64').toString('utf8')).sequence).toBe(2);
    // Once only.
    expect((await ctx.app.request(`/api/reschedule/${tokenA}`)).status).toBe(410);
    expect((await ctx.app.request(`/api/reschedule/${tokenA}`, jsonRequest({ date: '2027-09-08' }))).status).toBe(410);
    // Ends on the installation day; an unknown link is a 404.
    ctx.setNow(`${await dayOf(b)}T08:00:00Z`);
    expect((await ctx.app.request(`/api/reschedule/${tokenB}`)).status).toBe(410);
    expect((await ctx.app.request(`/api/reschedule/${'x'.repeat(32)}`)).status).toBe(404);
    ctx.setNow(NOW);
    staff = await adminCookie(ctx, 'staff');
  });
});

describe('the forecast', () => {
  const day = (date: string, region: string, postcode: string): ScheduleDay => ({
    date,
    capacity: 40,
    booked: 10,
    paid: 10,
    unpaid: 0,
    held: 10,
    closed: false,
    bookings: [{ id: 1, businessName: 'A', quantity: 10, workType: 'day', step: 3, paymentStatus: 'paid', region, postcode }],
  });

  it('adds rain per region for the next 7 days from an Open-Meteo-compatible API; without it, nothing', async () => {
    const fake = await startFakeHttpServer(() => ({
      json: [
        { daily: { time: ['2027-07-01', '2027-07-02'], precipitation_probability_max: [80, 10], precipitation_sum: [6.5, 0] } },
        { daily: { time: ['2027-07-01', '2027-07-02'], precipitation_probability_max: [20, 90], precipitation_sum: [0.2, 12] } },
      ],
    }));
    const days = [day('2027-07-01', 'Greater Manchester', 'M1'), day('2027-07-02', 'West Yorkshire', 'LS1'), day('2027-07-20', 'Greater Manchester', 'M1')];
    await addForecast({ ...ctx.deps, env: { ...ctx.deps.env, FORECAST_API_URL: fake.url } }, days);
    expect(days[0]!.forecast).toEqual({ 'Greater Manchester': { precipitationProbability: 80, precipitationMm: 6.5 } });
    expect(days[1]!.forecast).toEqual({ 'West Yorkshire': { precipitationProbability: 90, precipitationMm: 12 } });
    expect(days[2]!.forecast).toBeUndefined();
    const asked = new URL(fake.requests[0]!.url, fake.url);
    expect(asked.pathname).toBe('/v1/forecast');
    expect(asked.searchParams.get('daily')).toBe('precipitation_probability_max,precipitation_sum');
    expect(asked.searchParams.get('latitude')!.split(',')).toHaveLength(2);

    const without = [day('2027-07-01', 'Greater Manchester', 'M1')];
    await addForecast(ctx.deps, without);
    expect(without[0]!.forecast).toBeUndefined();
    const [scheduled] = (await (await ctx.app.request('/api/admin/schedule?from=2027-07-01&to=2027-07-01', adminRequest(staff))).json()).days;
    expect(scheduled).not.toHaveProperty('forecast');
  });

  it('a failing forecast service shows nothing rather than a guess', async () => {
    const fake = await startFakeHttpServer(() => ({ status: 500, json: { error: 'down' } }));
    const days = [day('2027-07-03', 'Merseyside', 'L1')];
    await addForecast({ ...ctx.deps, env: { ...ctx.deps.env, FORECAST_API_URL: fake.url } }, days);
    expect(days[0]!.forecast).toBeUndefined();
  });
});
