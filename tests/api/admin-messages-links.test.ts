import { beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { bookings, channelLogs, crewAssignments, crewLinks, crewStops, emailOutbox, jobRuns, trackingLinks, workers } from '../../db/schema.ts';
import { addDays } from '../../src/domain/format.ts';
import { runWorkerNotificationJob } from '../../src/server/services/crew/worker-notifications.ts';
import { MESSAGE_LINK_MESSAGES } from '../../src/server/services/messages/message-links.ts';
import { findBookingByLink } from '../../src/server/services/projects/tracking.ts';
import { bookingPayload, freshClient } from '../fixtures/bookings.ts';
import { insertRoutableBooking, scheduledFor } from '../fixtures/routable-bookings.ts';
import { adminCookie, adminRequest } from '../setup/admin.ts';
import { createTestContext, jsonRequest, TEST_ORIGIN } from '../setup/test-app.ts';

// Staff's Messages: the recipient search matches part of an address or a name, and Resend warns
// before sending a crew or tracking link that no longer works, offering the message with a fresh one.

const ctx = await createTestContext();
const db = ctx.deps.db;
let cookie: string;

const DAY = '2026-11-23';
const EVENING_BEFORE = '2026-11-22T18:00:00Z';

beforeEach(async () => {
  for (const table of [crewStops, crewAssignments, crewLinks, bookings, workers, jobRuns, emailOutbox, channelLogs]) await db.delete(table);
  ctx.setNow(EVENING_BEFORE);
  cookie = await adminCookie(ctx);
});

const get = (path: string) => ctx.app.request(path, adminRequest(cookie));
const resend = (id: number, query = '') =>
  ctx.app.request(`/api/admin/messages/${id}/resend${query}`, { method: 'POST', headers: { Cookie: cookie, Origin: TEST_ORIGIN, 'Idempotency-Key': crypto.randomUUID() } });
const crewDay = (token: string) => ctx.app.request('/api/crew/day', { headers: { Origin: TEST_ORIGIN, Authorization: `Bearer ${token}` } });
const crewToken = (text: string) => /\/crew\?t=([\w-]+)/.exec(text)![1]!;
const trackingToken = (text: string) => /\/track-project\?t=([\w-]+)/.exec(text)![1]!;

let day = 0;
async function book(email: string, firstName = 'Amira'): Promise<number> {
  const payload = bookingPayload({ preferredDate: addDays('2027-10-01', (day += 2)), email, firstName });
  const response = await ctx.app.request('/api/bookings', jsonRequest(payload), freshClient());
  expect(response.status).toBe(201);
  return (await response.json()).id;
}

async function workerMail() {
  await db.insert(workers).values({ email: 'lee@crew.co.uk', name: 'Lee Ward' });
  await insertRoutableBooking(db, scheduledFor(DAY));
  expect((await runWorkerNotificationJob(ctx.deps, new Date(EVENING_BEFORE))).outcome).toBe('sent');
  const [mail] = await db.select().from(emailOutbox).where(eq(emailOutbox.kind, 'worker-routes'));
  return mail!;
}

describe('GET /api/admin/messages?to=', () => {
  it('matches part of an address, or part of the name of the customer, enquirer or worker it went to', async () => {
    const bookingId = await book('amira@northernroasters.co.uk', 'Amira');
    await book('someone@elsewhere.co.uk', 'Zed');
    const enquiry = await ctx.app.request(
      '/api/contacts',
      jsonRequest({ firstName: 'Ola', lastName: 'Berg', email: 'ola@bergbakes.co.uk', inquiryType: 'Custom Quote', message: 'Twelve patches in York, please.', website: '' }),
      freshClient(),
    );
    expect(enquiry.status).toBe(201);
    await workerMail();

    const found = async (to: string) => {
      const response = await get(`/api/admin/messages?to=${encodeURIComponent(to)}`);
      expect(response.status).toBe(200);
      return (await response.json()) as { to: string; bookingId?: number; kind: string }[];
    };
    expect((await found('northernroast')).map((message) => message.to)).toEqual(['amira@northernroasters.co.uk']);
    const byName = await found('amira');
    expect(byName.length).toBeGreaterThan(0);
    expect(byName.every((message) => message.bookingId === bookingId || message.to === 'amira@northernroasters.co.uk')).toBe(true);
    expect((await found('BERG')).map((message) => message.kind)).toEqual(['enquiry-acknowledgement']);
    expect((await found('lee ward')).map((message) => message.to)).toEqual(['lee@crew.co.uk']);
    expect(await found('nobody-by-that-name')).toEqual([]);
  });
});

describe('Resend of a message whose link no longer works', () => {
  it('shows a revoked crew link, warns before resending, and sends a fresh link that opens the day', async () => {
    const mail = await workerMail();
    const oldToken = crewToken(mail.text);
    const [lee] = await db.select().from(workers);
    expect((await get(`/api/admin/messages/${mail.id}`)).status).toBe(200);
    expect((await (await get(`/api/admin/messages/${mail.id}`)).json()).link).toEqual({ kind: 'crew', state: 'live', canRenew: true });

    const revoked = await ctx.app.request(`/api/admin/crew/workers/${lee!.id}/revoke`, adminRequest(cookie, { method: 'POST', body: { date: DAY } }));
    expect(revoked.status).toBe(200);
    expect((await (await get(`/api/admin/messages/${mail.id}`)).json()).link).toEqual({ kind: 'crew', state: 'revoked', canRenew: true });

    const warned = await resend(mail.id);
    expect(warned.status).toBe(409);
    expect(await warned.json()).toMatchObject({ error: MESSAGE_LINK_MESSAGES.deadLink.crew, link: { kind: 'crew', state: 'revoked' } });
    expect(await db.select().from(emailOutbox)).toHaveLength(1);

    const fresh = await resend(mail.id, '?link=fresh');
    expect(fresh.status).toBe(202);
    const [copy] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, (await fresh.json()).id));
    const newToken = crewToken(copy!.text);
    expect(newToken).not.toBe(oldToken);
    expect(copy!.html).toContain(newToken);
    expect(copy!.html).not.toContain(oldToken);
    ctx.setNow('2026-11-23T09:00:00Z');
    expect((await crewDay(newToken)).status).toBe(200);
    expect((await crewDay(oldToken)).status).toBe(410);
  });

  it('resends the message as it is when staff choose so', async () => {
    const mail = await workerMail();
    const [lee] = await db.select().from(workers);
    await ctx.app.request(`/api/admin/crew/workers/${lee!.id}/revoke`, adminRequest(cookie, { method: 'POST', body: { date: DAY } }));
    const asIs = await resend(mail.id, '?link=as-is');
    expect(asIs.status).toBe(202);
    const [copy] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, (await asIs.json()).id));
    expect(copy!.text).toBe(mail.text);
  });

  it('offers no fresh crew link once the day is over', async () => {
    const mail = await workerMail();
    ctx.setNow('2026-11-25T09:00:00Z');
    cookie = await adminCookie(ctx);
    expect((await (await get(`/api/admin/messages/${mail.id}`)).json()).link).toEqual({ kind: 'crew', state: 'expired', canRenew: false });
    const refused = await resend(mail.id, '?link=fresh');
    expect(refused.status).toBe(409);
    expect((await refused.json()).error).toBe(MESSAGE_LINK_MESSAGES.cannotRenew.crew);
  });

  it('warns about a tracking link that was ended, and sends the customer a fresh one', async () => {
    const bookingId = await book('amira@northernroasters.co.uk');
    const [confirmation] = await db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.bookingId, bookingId), eq(emailOutbox.kind, 'booking-confirmation')));
    expect(confirmation!.text).toContain('/track-project?t=');
    await db.delete(trackingLinks).where(eq(trackingLinks.bookingId, bookingId));

    expect((await (await get(`/api/admin/messages/${confirmation!.id}`)).json()).link).toEqual({ kind: 'tracking', state: 'gone', canRenew: true });
    const warned = await resend(confirmation!.id);
    expect(warned.status).toBe(409);
    expect((await warned.json()).error).toBe(MESSAGE_LINK_MESSAGES.deadLink.tracking);

    const fresh = await resend(confirmation!.id, '?link=fresh');
    expect(fresh.status).toBe(202);
    const [copy] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, (await fresh.json()).id));
    expect((await findBookingByLink(db, trackingToken(copy!.text)))?.id).toBe(bookingId);
    const [log] = await db.select().from(channelLogs).where(eq(channelLogs.action, 'email_resent'));
    expect(log!.details).toContain('with a fresh link');
  });

  it('refuses an unknown choice with a 400', async () => {
    const mail = await workerMail();
    expect((await resend(mail.id, '?link=maybe')).status).toBe(400);
  });
});
