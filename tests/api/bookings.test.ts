import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import {
  bookingLocations,
  bookings,
  channelLogs,
  emailOutbox,
  idempotencyKeys,
} from '../../db/schema.ts';
import { BUSINESS } from '../../src/content/business.ts';
import { addDays, formatLongDate } from '../../src/domain/format.ts';
import { hashCheckoutToken } from '../../src/server/services/payments/checkout-token.ts';
import { createApp } from '../../src/server/api/app.ts';
import { STUCK_SENDING_MINUTES } from '../../src/server/providers/email-outbox.ts';
import { createMailer, type Mailer } from '../../src/server/providers/mailer.ts';
import { EMAIL_RETRY_BASE_MINUTES, runMaintenance } from '../../src/server/services/jobs/maintenance.ts';
import { silentLogger } from '../../src/server/app/logger.ts';
import { createTestContext, jsonRequest, TEST_ORIGIN } from '../setup/test-app.ts';
import { bookingsUsing, fileNamesOf, insertBrandFile } from '../fixtures/booking-files.ts';
import { bookingPayload, freshClient } from '../fixtures/bookings.ts';

const ctx = await createTestContext();
const db = ctx.deps.db;

const post = (body: unknown, init: RequestInit = {}, client = freshClient(), app = ctx.app) =>
  app.request('/api/bookings', jsonRequest(body, init), client);

/** Dates far enough apart that tests never share a day's capacity. */
let day = 0;
const nextDate = () => addDays('2027-08-01', (day += 1));

async function countRows() {
  // Earlier bookings' e-mails are delivered after their answers (each delivery logs a line):
  // let them finish, so the counts are a still picture.
  await ctx.deps.background.idle();
  const count = async (table: typeof bookings | typeof bookingLocations | typeof emailOutbox | typeof channelLogs) =>
    (await db.select({ n: sql<number>`cast(count(*) as integer)` }).from(table))[0]!.n;
  return {
    bookings: await count(bookings),
    locations: await count(bookingLocations),
    outbox: await count(emailOutbox),
    logs: await count(channelLogs),
  };
}

async function insertUpload(fileName: string, originalName = 'logo.png', bookingId: number | null = null) {
  await insertBrandFile(db, { fileName, originalName, fileSize: 1234, mimeType: 'image/png', storage: 'disk' }, bookingId);
}

describe('POST /api/bookings: a new booking', () => {
  it('creates a pending, unpaid booking at the server price and answers 201', async () => {
    const response = await post(bookingPayload());
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body).toEqual({
      id: expect.any(Number),
      status: 'pending',
      paymentStatus: 'unpaid',
      amountPaid: null,
      paidAt: null,
      totalPrice: 799,
      quantity: 10,
      workType: 'night',
      preferredDate: '2027-07-14',
      locationAddress: bookingPayload().locationAddress,
      checkoutToken: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
    });
    const [row] = await db.select().from(bookings).where(eq(bookings.id, body.id));
    // Only the token's SHA-256 is kept on the booking; the token itself is in this answer alone.
    expect(row!.checkoutTokenHash).toBe(hashCheckoutToken(body.checkoutToken));
    expect(row!.checkoutTokenHash).not.toContain(body.checkoutToken);
    expect(row).toMatchObject({
      firstName: 'Amira',
      businessName: 'Northern Roasters',
      totalPricePence: 79_900,
      status: 'pending',
      paymentStatus: 'unpaid',
      isTest: false,
      // Derived from the first map location's postcode.
      postcode: 'M1',
      region: 'Greater Manchester',
      archived: false,
      currentStep: 1,
    });
  });

  it.each([
    ['a forged low price', 1],
    ['a forged high price', 999_999],
    ['a price of zero', 0],
    ['no price at all', undefined],
  ])('prices 10 night patches at £799 whatever the body says (%s)', async (_name, totalPrice) => {
    const response = await post(bookingPayload({ totalPrice, preferredDate: nextDate() }));
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body.totalPrice).toBe(799);
    const [row] = await db.select().from(bookings).where(eq(bookings.id, body.id));
    expect(row!.totalPricePence).toBe(79_900);
  });

  it.each([
    [5, 'day', 349],
    [10, 'day', 599],
    [12, 'day', 689],
    [5, 'night', 449],
  ])('prices %i %s patches at £%i', async (quantity, workType, pounds) => {
    const response = await post(bookingPayload({ quantity, workType, preferredDate: nextDate() }));
    expect((await response.json()).totalPrice).toBe(pounds);
  });

  it('writes each map location with its outward code and region', async () => {
    const { id } = await (await post(bookingPayload({ preferredDate: nextDate() }))).json();
    const rows = await db.select().from(bookingLocations).where(eq(bookingLocations.bookingId, id)).orderBy(bookingLocations.position);
    expect(rows.map(({ position, lat, lng, postcode, region }) => ({ position, lat, lng, postcode, region }))).toEqual([
      { position: 0, lat: 53.4808, lng: -2.2369, postcode: 'M1', region: 'Greater Manchester' },
      { position: 1, lat: 53.7973, lng: -1.5422, postcode: 'LS1', region: 'West Yorkshire' },
    ]);
  });

  it('flags a test booking', async () => {
    const response = await post(bookingPayload({ firstName: 'Test', email: 'someone@test.co.uk', preferredDate: nextDate() }));
    const [row] = await db.select().from(bookings).where(eq(bookings.id, (await response.json()).id));
    expect(row!.isTest).toBe(true);
  });

  it('claims the uploaded files it names', async () => {
    await insertUpload('4f1d7a1e-0000-4000-8000-000000000001.png', 'Brand Logo.png');
    await insertUpload('4f1d7a1e-0000-4000-8000-000000000002.pdf', 'Brief.pdf');
    const uploaded = [
      { filename: '4f1d7a1e-0000-4000-8000-000000000001.png', originalName: 'Brand Logo.png', fileSize: 1234, mimeType: 'image/png' },
      { filename: '4f1d7a1e-0000-4000-8000-000000000002.pdf', originalName: 'Brief.pdf', fileSize: 1234, mimeType: 'application/pdf' },
    ];
    const response = await post(bookingPayload({ uploadedFiles: uploaded, preferredDate: nextDate() }));
    expect(response.status).toBe(201);
    const { id } = await response.json();
    expect(await fileNamesOf(db, id)).toEqual(['4f1d7a1e-0000-4000-8000-000000000001.png', '4f1d7a1e-0000-4000-8000-000000000002.pdf']);
  });

  it('claims a file uploaded through POST /api/upload', async () => {
    const form = new FormData();
    const png = new Uint8Array(readFileSync(new URL('../fixtures/logo.png', import.meta.url)));
    form.set('file', new File([png], 'logo.png', { type: 'image/png' }));
    const uploaded = await (await ctx.app.request('/api/upload', { method: 'POST', body: form, headers: { Origin: TEST_ORIGIN } }, freshClient())).json();
    const response = await post(bookingPayload({ uploadedFiles: [uploaded], preferredDate: nextDate() }));
    expect(response.status).toBe(201);
    expect(await bookingsUsing(db, uploaded.filename)).toEqual([(await response.json()).id]);
  });

  it('logs the booking on the booking channel', async () => {
    const { id } = await (await post(bookingPayload({ preferredDate: nextDate() }))).json();
    const [log] = await db.select().from(channelLogs).where(eq(channelLogs.entityId, String(id)));
    expect(log).toMatchObject({ channel: 'booking', action: 'booking_created', entityType: 'booking', severity: 'info' });
  });
});

describe('POST /api/bookings: the confirmation e-mail', () => {
  it('queues the confirmation with what was booked, the ID, the track link and what happens next, then delivers it', async () => {
    const { id } = await (await post(bookingPayload({ preferredDate: '2027-07-21' }))).json();
    await ctx.deps.background.idle();
    const [mail] = await db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, `booking-confirmation:${id}`));
    expect(mail).toBeDefined();
    expect(mail!.kind).toBe('booking-confirmation');
    expect(mail!.to).toBe('amira@northernroasters.co.uk');
    expect(mail!.subject).toContain(`#${id}`);
    for (const expected of [
      `Booking ID: ${id}`,
      'Patches: 10',
      'Work type: Night (6pm - 6am)',
      'Preferred date: 21 July 2027',
      'Total: £799',
      'Piccadilly Gardens, Manchester',
      'Briggate, Leeds',
      `${TEST_ORIGIN}/track-project`,
      `your booking ID (${id})`,
      'amira@northernroasters.co.uk',
      '1. Design Consultation (Within 24 hours)',
      '2. Stencil Creation (2-3 business days)',
      '5. Photo Documentation (Same day as installation)',
      '0161 496 0123',
      'hello@cleanpatch.example',
      'Monday to Friday, 9am to 5pm',
    ]) {
      expect(mail!.text).toContain(expected);
    }
    expect(mail!.html).toContain(`${TEST_ORIGIN}/track-project`);
    // Delivered after the answer (no SendGrid key: the outbox transport logs it).
    expect(mail!.status).toBe('logged');
  });

  it("links 'complete payment' to a checkout that needs the booking's token, not its id", async () => {
    const { id, checkoutToken } = await (await post(bookingPayload({ preferredDate: nextDate() }))).json();
    const [mail] = await db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, `booking-confirmation:${id}`));
    const link = new URL(/Pay online: (\S+)/.exec(mail!.text)![1]!);
    expect(`${link.origin}${link.pathname}`).toBe(`${TEST_ORIGIN}/checkout`);
    expect(link.searchParams.get('booking')).toBe(String(id));
    expect(link.searchParams.get('t')).toBe(checkoutToken);
    expect(mail!.html).toContain('>Complete payment</a>');

    // /checkout loads the booking with what the link carries; the id alone gets nothing.
    const summary = await ctx.app.request(
      '/api/checkout-booking',
      jsonRequest({ bookingId: link.searchParams.get('booking'), checkoutToken: link.searchParams.get('t') }),
      freshClient(),
    );
    expect(summary.status).toBe(200);
    expect(await summary.json()).toMatchObject({ bookingId: id, firstName: 'Amira', quantity: '10', workType: 'night', totalPrice: 799 });
    const guessed = await ctx.app.request('/api/checkout-booking', jsonRequest({ bookingId: id, checkoutToken: 'guess' }), freshClient());
    expect(guessed.status).toBe(404);
    const missing = await ctx.app.request('/api/checkout-booking', jsonRequest({ bookingId: id }), freshClient());
    expect(missing.status).toBe(400);
  });

  it('escapes customer text in the HTML version', async () => {
    const { id } = await (await post(bookingPayload({ firstName: '<img src=x onerror=alert(1)>', preferredDate: nextDate() }))).json();
    const [mail] = await db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, `booking-confirmation:${id}`));
    expect(mail!.html).not.toContain('<img');
    expect(mail!.html).toContain('&lt;img');
  });

  it('notifies staff when ADMIN_EMAIL is set', async () => {
    const app = createApp({ ...ctx.deps, env: { ...ctx.deps.env, ADMIN_EMAIL: 'bookings@cleanpatch.example' } });
    const { id } = await (await post(bookingPayload({ preferredDate: nextDate() }), {}, freshClient(), app)).json();
    const [note] = await db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, `booking-staff-notification:${id}`));
    expect(note).toMatchObject({ to: 'bookings@cleanpatch.example', kind: 'booking-staff-notification' });
    expect(note!.text).toContain('Amira Khan, Northern Roasters');
  });

  it('sends only this booking’s e-mails after answering, leaving other queued mail to the maintenance job', async () => {
    const [waiting] = await db
      .insert(emailOutbox)
      .values({ kind: 'completion', to: 'someone@example.org', subject: 'Queued earlier', text: 'Waiting', dedupeKey: `completion:queued-beside:${nextDate()}` })
      .returning({ id: emailOutbox.id });
    const app = createApp({ ...ctx.deps, env: { ...ctx.deps.env, ADMIN_EMAIL: 'bookings@cleanpatch.example' } });
    const { id } = await (await post(bookingPayload({ preferredDate: nextDate() }), {}, freshClient(), app)).json();
    await ctx.deps.background.idle();

    const own = await db
      .select({ kind: emailOutbox.kind, status: emailOutbox.status })
      .from(emailOutbox)
      .where(sql`${emailOutbox.dedupeKey} in (${`booking-confirmation:${id}`}, ${`booking-staff-notification:${id}`})`)
      .orderBy(emailOutbox.kind);
    expect(own).toEqual([
      { kind: 'booking-confirmation', status: 'logged' },
      { kind: 'booking-staff-notification', status: 'logged' },
    ]);
    const [other] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, waiting!.id));
    expect(other).toMatchObject({ status: 'queued', attempts: 0 });
  });

  it('writes no staff notification when ADMIN_EMAIL is unset', async () => {
    const { id } = await (await post(bookingPayload({ preferredDate: nextDate() }))).json();
    expect(await db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, `booking-staff-notification:${id}`))).toHaveLength(0);
  });

  /** Books through an app with `mailer`, waits for its after-answer work, and reads its confirmation's outbox row. */
  async function bookWithMailer(mailer: Mailer) {
    const response = await post(bookingPayload({ preferredDate: nextDate() }), {}, freshClient(), createApp({ ...ctx.deps, mailer }));
    expect(response.status).toBe(201);
    const { id } = await response.json();
    await ctx.deps.background.idle();
    return async () => (await db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, `booking-confirmation:${id}`)))[0]!;
  }

  it('still creates the booking when SendGrid is down, and the maintenance job retries its e-mail', async () => {
    const confirmation = await bookWithMailer(
      createMailer({ ...ctx.deps.env, SENDGRID_API_KEY: 'SG.fake' }, silentLogger, async () => new Response('down', { status: 503 })),
    );
    expect(await confirmation()).toMatchObject({ status: 'failed', attempts: 1 });
    // The first retry waits EMAIL_RETRY_BASE_MINUTES × 2 after the failed attempt.
    const retryAt = new Date(ctx.deps.now().getTime() + EMAIL_RETRY_BASE_MINUTES * 2 * 60_000 + 60_000);
    await runMaintenance(ctx.deps, retryAt);
    expect(await confirmation()).toMatchObject({ status: 'logged', attempts: 2 });
  });

  it('still creates the booking when its delivery after the answer never finishes, and the maintenance job sends its e-mail later', async () => {
    const down = async () => {
      throw new Error('SendGrid is down');
    };
    const confirmation = await bookWithMailer({ transport: ctx.deps.mailer.transport, deliverQueued: down, deliverClaimed: down });
    // Written claimed by the request, whose delivery never finished.
    expect(await confirmation()).toMatchObject({ status: 'sending', attempts: 1 });
    // Within the stuck window the hourly job leaves it to the request that claimed it; past it,
    // the job queues it again and sends it in the same run.
    const claimedAt = ctx.deps.now();
    await runMaintenance(ctx.deps, new Date(claimedAt.getTime() + (STUCK_SENDING_MINUTES - 1) * 60_000));
    expect((await confirmation()).status).toBe('sending');
    await runMaintenance(ctx.deps, new Date(claimedAt.getTime() + (STUCK_SENDING_MINUTES + 1) * 60_000));
    expect(await confirmation()).toMatchObject({ status: 'logged', attempts: 2 });
  });
});

describe('POST /api/bookings: validation with the spec messages', () => {
  it.each([
    ['firstName', { firstName: '' }, 'First name is required'],
    ['firstName', { firstName: '   ' }, 'First name is required'],
    ['firstName', { firstName: undefined }, 'First name is required'],
    ['lastName', { lastName: '' }, 'Last name is required'],
    ['email', { email: 'not-an-email' }, 'Valid email is required'],
    ['email', { email: '' }, 'Valid email is required'],
    ['phone', { phone: '' }, 'Phone number is required'],
    ['preferredDate', { preferredDate: '' }, 'Preferred date is required'],
    ['preferredDate', { preferredDate: '2027-06-30' }, 'Bookings are only available from July onwards'],
    ['preferredDate', { preferredDate: '2028-01-15' }, 'Bookings are only available from July onwards'],
    ['quantity', { quantity: 4 }, 'Minimum 5 patches required'],
    ['quantity', { quantity: 5.5 }, 'Minimum 5 patches required'],
    ['quantity', { quantity: 'abc' }, 'Invalid quantity value'],
    ['locationAddress', { locationAddress: '' }, 'Location address is required'],
    ['workType', { workType: 'evening' }, 'Please select work type'],
    ['workType', { workType: undefined }, 'Please select work type'],
  ])('%s: %j → %s', async (field, override, message) => {
    const before = await countRows();
    const response = await post(bookingPayload(override));
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.fields[field]).toBe(message);
    expect(body.error).toBe(message);
    expect((await countRows()).bookings).toBe(before.bookings);
  });

  it('reports every missing field of an empty body at once', async () => {
    const response = await post({});
    expect(response.status).toBe(400);
    expect((await response.json()).fields).toEqual({
      firstName: 'First name is required',
      lastName: 'Last name is required',
      email: 'Valid email is required',
      phone: 'Phone number is required',
      preferredDate: 'Preferred date is required',
      quantity: 'Invalid quantity value',
      locationAddress: 'Location address is required',
      workType: 'Please select work type',
    });
  });

  it('reports a bad map location on the locationCoordinates field', async () => {
    const response = await post(bookingPayload({ locationCoordinates: [{ address: 'x', lat: 95, lng: 0 }] }));
    expect(response.status).toBe(400);
    expect((await response.json()).fields.locationCoordinates).toBe('Latitude must be between -90 and 90');
  });

  it('answers malformed JSON with 400 and a non-JSON body with 415', async () => {
    expect((await post('{"firstName": ')).status).toBe(400);
    const response = await ctx.app.request(
      '/api/bookings',
      { method: 'POST', headers: { Origin: TEST_ORIGIN, 'Content-Type': 'text/plain' }, body: 'hello' },
      freshClient(),
    );
    expect(response.status).toBe(415);
  });

  it('refuses a cross-site booking with 403', async () => {
    const response = await post(bookingPayload(), { headers: { Origin: 'https://evil.example' } });
    expect(response.status).toBe(403);
  });
});

describe('POST /api/bookings: date rules', () => {
  it('refuses a date before today (Europe/London) with the server message', async () => {
    ctx.setNow('2027-07-10T09:00:00Z');
    try {
      const response = await post(bookingPayload({ preferredDate: '2027-07-09' }));
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        error: 'Preferred date cannot be in the past',
        fields: { preferredDate: 'Preferred date cannot be in the past' },
      });
      expect((await post(bookingPayload({ preferredDate: '2027-07-10' }))).status).toBe(201);
    } finally {
      ctx.setNow('2026-11-22T10:00:00Z');
    }
  });

  it.each(['9999-07-15', '2028-11-23'])('refuses %s, more than two years ahead, in fields.preferredDate', async (date) => {
    const response = await post(bookingPayload({ preferredDate: date }));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: 'Preferred date must be within 2 years of today',
      fields: { preferredDate: 'Preferred date must be within 2 years of today' },
    });
  });

  it('accepts the last day of the two years (London today is 2026-11-22)', async () => {
    expect((await post(bookingPayload({ preferredDate: '2028-11-22' }))).status).toBe(201);
  });

  it('uses the UK date: 23:30 UTC on 9 July is already 10 July in London', async () => {
    ctx.setNow('2027-07-09T23:30:00Z');
    try {
      const response = await post(bookingPayload({ preferredDate: '2027-07-09' }));
      expect(response.status).toBe(400);
      expect((await response.json()).error).toBe('Preferred date cannot be in the past');
    } finally {
      ctx.setNow('2026-11-22T10:00:00Z');
    }
  });

  it('answers 409 Date Unavailable for an admin-blocked date and writes nothing', async () => {
    const date = nextDate();
    await db.execute(sql`insert into schedule_days (date, capacity, reason) values (${date}, 0, 'Team holiday')`);
    const before = await countRows();
    const response = await post(bookingPayload({ preferredDate: date }));
    expect(response.status).toBe(409);
    const body = await response.json();
    expect(body.error).toBe('Date Unavailable');
    // No field: the date itself is unavailable, and the form marks it so.
    expect(body.fields).toBeUndefined();
    expect(await countRows()).toEqual(before);
  });

  /** A booking through the form, then paid (as Stripe's webhook would mark it): only paid ones fill a date. */
  async function paidBooking(quantity: number, date: string) {
    const response = await post(bookingPayload({ quantity, preferredDate: date }));
    expect(response.status).toBe(201);
    await db.update(bookings).set({ paymentStatus: 'paid' }).where(eq(bookings.id, (await response.json()).id));
  }

  it('answers 409 Date Unavailable once the day is full (40 patches)', async () => {
    const date = nextDate();
    for (const quantity of [20, 15, 5]) await paidBooking(quantity, date);
    const full = await post(bookingPayload({ quantity: 5, preferredDate: date }));
    expect(full.status).toBe(409);
    expect(await full.json()).toEqual({ error: 'Date Unavailable', requestId: expect.any(String) });
  });

  it('says how many patches are still free when a booking does not fit a day that has room, and writes nothing', async () => {
    const date = nextDate();
    for (const quantity of [20, 15]) await paidBooking(quantity, date);
    const before = await countRows();
    // 35 of 40 held: 6 more would make 41.
    const over = await post(bookingPayload({ quantity: 6, preferredDate: date }));
    expect(over.status).toBe(409);
    const message = `Only 5 patches are still free on ${formatLongDate(date)}. Choose 5 or fewer patches, or another date.`;
    expect(await over.json()).toEqual({ error: message, fields: { preferredDate: message }, requestId: expect.any(String) });
    expect(await countRows()).toEqual(before);
    // The smaller booking the message suggests fits exactly.
    expect((await post(bookingPayload({ quantity: 5, preferredDate: date }))).status).toBe(201);
  });

  it('says when the room left is below the 5-patch minimum', async () => {
    const date = nextDate();
    await paidBooking(38, date);
    const response = await post(bookingPayload({ quantity: 5, preferredDate: date }));
    expect(response.status).toBe(409);
    const message = `Only 2 patches are still free on ${formatLongDate(date)}, fewer than the 5-patch minimum. Please choose another date.`;
    expect((await response.json()).fields).toEqual({ preferredDate: message });
  });

  it('says a quantity larger than one day can take is for the business to plan, on the quantity', async () => {
    const date = nextDate();
    const response = await post(bookingPayload({ quantity: 41, preferredDate: date }));
    expect(response.status).toBe(409);
    const message =
      `41 patches is more than we can lay in one day (40 at most). ` +
      `Please contact us on ${BUSINESS.phone} or ${BUSINESS.email} to plan a larger campaign.`;
    expect(await response.json()).toEqual({ error: message, fields: { quantity: message }, requestId: expect.any(String) });
    // The date was never in question: a day's worth still books.
    expect((await post(bookingPayload({ quantity: 40, preferredDate: date }))).status).toBe(201);
  });

  it('follows the DAILY_PATCH_CAPACITY setting in its messages', async () => {
    const date = nextDate();
    const small = createApp({ ...ctx.deps, env: { ...ctx.deps.env, DAILY_PATCH_CAPACITY: 12 } });
    const response = await post(bookingPayload({ quantity: 15, preferredDate: date }), {}, freshClient(), small);
    expect(response.status).toBe(409);
    expect((await response.json()).fields.quantity).toMatch(/^15 patches is more than we can lay in one day \(12 at most\)\./);
  });

  it('takes concurrent unpaid bookings for one date: only payment decides who gets the day', async () => {
    const date = nextDate();
    await paidBooking(20, date);
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => post(bookingPayload({ quantity: 10, preferredDate: date }))),
    );
    expect(responses.map((response) => response.status)).toEqual([201, 201, 201, 201, 201, 201]);
    // Paid ones are the only ones counted (payments.test.ts: the first to pay gets the room).
    const [held] = await db
      .select({ patches: sql<number>`cast(sum(${bookings.quantity}) as integer)` })
      .from(bookings)
      .where(sql`${bookings.preferredDate} = ${date} and ${bookings.paymentStatus} = 'paid'`);
    expect(held!.patches).toBe(20);
  });
});

describe('POST /api/bookings: Idempotency-Key', () => {
  it('makes five identical concurrent submits one booking with one id', async () => {
    // The same browser retrying: a key replays only to the client that made it.
    const browser = freshClient();
    const payload = bookingPayload({ preferredDate: nextDate(), email: 'race@northernroasters.co.uk' });
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => post(payload, { headers: { 'Idempotency-Key': 'checkout-7f3a9c' } }, browser)),
    );
    const bodies = await Promise.all(responses.map((response) => response.json()));
    expect(responses.map((response) => response.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(bodies.map((body) => body.id)).size).toBe(1);
    expect(new Set(bodies.map((body) => body.checkoutToken)).size).toBe(1);
    expect(bodies.every((body) => body.totalPrice === 799 && body.status === 'pending')).toBe(true);
    const rows = await db.select().from(bookings).where(eq(bookings.email, 'race@northernroasters.co.uk'));
    expect(rows).toHaveLength(1);
    expect(await db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, `booking-confirmation:${rows[0]!.id}`))).toHaveLength(1);
  });

  it('answers a later repeat with the first booking and 200', async () => {
    const browser = freshClient();
    const payload = bookingPayload({ preferredDate: nextDate() });
    const first = await post(payload, { headers: { 'Idempotency-Key': 'later-repeat' } }, browser);
    const second = await post(payload, { headers: { 'Idempotency-Key': 'later-repeat' } }, browser);
    expect([first.status, second.status]).toEqual([201, 200]);
    const [created, replayed] = [await first.json(), await second.json()];
    expect(replayed.id).toBe(created.id);
    // The replay hands back the same checkout token, which still opens the booking's payment.
    expect(replayed.checkoutToken).toBe(created.checkoutToken);
    const [row] = await db.select().from(bookings).where(eq(bookings.id, created.id));
    expect(row!.checkoutTokenHash).toBe(hashCheckoutToken(replayed.checkoutToken));
  });

  it('keeps neither the checkout token, nor the key, nor anything the person typed in the idempotency row', async () => {
    const browser = freshClient();
    const payload = bookingPayload({ preferredDate: nextDate(), phone: '0161 496 0777' });
    const created = await (await post(payload, { headers: { 'Idempotency-Key': 'kept-small-key' } }, browser)).json();
    const rows = await db.select().from(idempotencyKeys);
    const stored = JSON.stringify(rows);
    for (const secret of [created.checkoutToken, 'kept-small-key', '0161 496 0777', 'Piccadilly', 'Amira']) {
      expect(stored).not.toContain(secret);
    }
    // The replay still gets the whole answer, rebuilt, with the same token.
    const replayed = await (await post(payload, { headers: { 'Idempotency-Key': 'kept-small-key' } }, browser)).json();
    expect(replayed).toEqual(created);
  });

  it('gives every new booking its own checkout token', async () => {
    const tokens = new Set<string>();
    for (let i = 0; i < 3; i += 1) {
      const response = await post(bookingPayload({ preferredDate: nextDate() }));
      tokens.add((await response.json()).checkoutToken);
    }
    expect(tokens.size).toBe(3);
  });

  it('treats the same fields in another order as the same request', async () => {
    const browser = freshClient();
    const payload = bookingPayload({ preferredDate: nextDate() });
    const reordered = Object.fromEntries(Object.entries(payload).reverse());
    const first = await post(payload, { headers: { 'Idempotency-Key': 'reordered' } }, browser);
    const second = await post(reordered, { headers: { 'Idempotency-Key': 'reordered' } }, browser);
    expect(second.status).toBe(200);
    expect((await second.json()).id).toBe((await first.json()).id);
  });

  it('never replays a key to another client, even with the same body: 409, no checkout token', async () => {
    const payload = bookingPayload({ preferredDate: nextDate() });
    const created = await post(payload, { headers: { 'Idempotency-Key': 'someone-elses-key' } }, freshClient());
    expect(created.status).toBe(201);
    const replay = await post(payload, { headers: { 'Idempotency-Key': 'someone-elses-key' } }, freshClient());
    expect(replay.status).toBe(409);
    const body = await replay.json();
    expect(body.error).toBe(
      'Idempotency-Key was already used by another client. If you sent this booking before, check your e-mail for its confirmation.',
    );
    expect(JSON.stringify(body)).not.toContain((await created.json()).checkoutToken);
  });

  it('refuses a key reused with a different request with 409', async () => {
    const browser = freshClient();
    const date = nextDate();
    expect((await post(bookingPayload({ preferredDate: date }), { headers: { 'Idempotency-Key': 'reused' } }, browser)).status).toBe(201);
    const response = await post(bookingPayload({ preferredDate: date, quantity: 5 }), { headers: { 'Idempotency-Key': 'reused' } }, browser);
    expect(response.status).toBe(409);
    expect((await response.json()).error).toBe('Idempotency-Key was already used with a different request');
  });

  it('keeps no key for a failed attempt, so the corrected request can use it', async () => {
    const browser = freshClient();
    const date = nextDate();
    await db.execute(sql`insert into schedule_days (date, capacity) values (${date}, 0)`);
    const refused = await post(bookingPayload({ preferredDate: date }), { headers: { 'Idempotency-Key': 'after-failure' } }, browser);
    expect(refused.status).toBe(409);
    expect(await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, 'after-failure'))).toHaveLength(0);
    await db.execute(sql`delete from schedule_days where date = ${date}`);
    const accepted = await post(bookingPayload({ preferredDate: date }), { headers: { 'Idempotency-Key': 'after-failure' } }, browser);
    expect(accepted.status).toBe(201);
  });

  it.each([['x'.repeat(201)], ['   '], ['has space']])('answers a malformed key %j with 400', async (key) => {
    const response = await post(bookingPayload({ preferredDate: nextDate() }), { headers: { 'Idempotency-Key': key } });
    expect(response.status).toBe(400);
  });

  it('accepts a key of 200 characters', async () => {
    const response = await post(bookingPayload({ preferredDate: nextDate() }), { headers: { 'Idempotency-Key': 'k'.repeat(200) } });
    expect(response.status).toBe(201);
  });
});

describe('POST /api/bookings: one transaction', () => {
  it('leaves no booking, location, outbox or log row when an uploaded file is unknown', async () => {
    await insertUpload('5a5a5a5a-0000-4000-8000-000000000001.png', 'known.png');
    const before = await countRows();
    const response = await post(
      bookingPayload({
        preferredDate: nextDate(),
        uploadedFiles: [
          { filename: '5a5a5a5a-0000-4000-8000-000000000001.png', originalName: 'known.png', fileSize: 1234, mimeType: 'image/png' },
          { filename: '5a5a5a5a-0000-4000-8000-00000000dead.png', originalName: 'missing.png', fileSize: 1, mimeType: 'image/png' },
        ],
      }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: 'Uploaded file not found: missing.png',
      fields: { uploadedFiles: 'Uploaded file not found: missing.png' },
    });
    expect(await countRows()).toEqual(before);
    // The file the booking had already claimed is released with the rollback.
    expect(await bookingsUsing(db, '5a5a5a5a-0000-4000-8000-000000000001.png')).toEqual([]);
  });

  it("refuses a file another booking has already claimed", async () => {
    const { id } = await (await post(bookingPayload({ preferredDate: nextDate() }))).json();
    await insertUpload('6b6b6b6b-0000-4000-8000-000000000001.svg', 'theirs.svg', id);
    const response = await post(
      bookingPayload({
        preferredDate: nextDate(),
        uploadedFiles: [{ filename: '6b6b6b6b-0000-4000-8000-000000000001.svg', originalName: 'theirs.svg', fileSize: 1234, mimeType: 'image/svg+xml' }],
      }),
    );
    expect(response.status).toBe(400);
    expect((await response.json()).fields.uploadedFiles).toBe('Uploaded file not found: theirs.svg');
  });
});

describe('POST /api/bookings: rate limit', () => {
  it('allows 20 booking attempts an hour per client, then 429', async () => {
    const client = freshClient();
    for (let index = 0; index < 20; index += 1) {
      expect((await post({}, {}, client)).status).toBe(400);
    }
    const limited = await post(bookingPayload({ preferredDate: nextDate() }), {}, client);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeTruthy();
  });
});
