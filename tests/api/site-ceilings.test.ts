import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bookings, contactEnquiries, emailOutbox, uploadedFiles, uploadSessions } from '../../db/schema.ts';
import { addDays } from '../../src/domain/format.ts';
import { createApp } from '../../src/server/api/app.ts';
import { parseEnv } from '../../src/server/env.ts';
import { SITE_CEILINGS, siteCeilingRule, TOO_MANY_REQUESTS, type SiteCeiling } from '../../src/server/services/limits/rate-limit.ts';
import { createTestContext, jsonRequest, TEST_ORIGIN } from '../setup/test-app.ts';
import { bookingPayload, freshClient } from '../fixtures/bookings.ts';

// Every public call that stores data or sends e-mail to a typed address has a ceiling for the
// whole site besides its per-client limit (rate-limit.ts admitToSiteCeiling; the numbers and reasons in
// env.ts SITE_MAX_*). Lowered here through the same settings, so a handful of addresses reach them.
const CEILING = 3;
const ctx = await createTestContext({
  SITE_MAX_BOOKINGS_PER_HOUR: CEILING,
  SITE_MAX_ENQUIRIES_PER_HOUR: CEILING,
  SITE_MAX_UPLOADS_PER_HOUR: CEILING,
  SITE_MAX_TRACKING_LOOKUPS_PER_HOUR: CEILING,
});
const db = ctx.deps.db;
const PNG = readFileSync(new URL('../fixtures/logo.png', import.meta.url));

let day = 0;
const nextDate = () => addDays('2027-08-01', (day += 1));
let hour = 0;
/** Each test starts in an hour of its own, so no ceiling carries over from the last test. */
function freshHour() {
  hour += 3;
  ctx.setNow(new Date(Date.UTC(2026, 10, 22, 0) + hour * 3_600_000 + 60_000));
}
const advance = (seconds: number) => ctx.setNow(new Date(ctx.deps.now().getTime() + seconds * 1000));

async function count(table: typeof bookings | typeof emailOutbox | typeof contactEnquiries | typeof uploadedFiles | typeof uploadSessions) {
  await ctx.deps.background.idle();
  return (await db.select({ n: sql<number>`cast(count(*) as integer)` }).from(table))[0]!.n;
}

async function expectRefused(response: Response) {
  expect(response.status).toBe(429);
  expect((await response.json()).error).toBe(TOO_MANY_REQUESTS);
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  return retryAfter;
}

const book = (client = freshClient()) =>
  ctx.app.request('/api/bookings', jsonRequest(bookingPayload({ preferredDate: nextDate() })), client);

const enquiry = {
  firstName: 'Amira',
  lastName: 'Khan',
  email: 'amira@northernroasters.co.uk',
  phone: '0161 496 0000',
  inquiryType: 'Custom Quote',
  message: 'Twenty patches outside our three cafés in Leeds, please.',
  website: '',
};
const enquire = () => ctx.app.request('/api/contacts', jsonRequest(enquiry), freshClient());

function upload() {
  const form = new FormData();
  form.set('file', new File([PNG], 'logo.png', { type: 'image/png' }));
  return ctx.app.request('/api/upload', { method: 'POST', body: form, headers: { Origin: TEST_ORIGIN } }, freshClient());
}
const startParts = () => ctx.app.request('/api/upload/parts', jsonRequest({ name: 'Brand guide.pdf', size: 5_000_000 }), freshClient());

const track = () =>
  ctx.app.request('/api/track-project', jsonRequest({ email: 'nobody@example.co.uk', bookingId: 999_999 }), freshClient());

describe('the ceilings’ numbers', () => {
  it('default to 120 booking attempts, 60 enquiries, 300 uploads and 300 tracking lookups over a sliding hour', () => {
    const env = parseEnv({});
    expect(Object.fromEntries(Object.keys(SITE_CEILINGS).map((name) => {
      const rule = siteCeilingRule(name as SiteCeiling, env);
      return [name, `${rule.limit} per ${rule.windowSeconds} s`];
    }))).toEqual({
      bookings: '120 per 3600 s',
      enquiries: '60 per 3600 s',
      uploads: '300 per 3600 s',
      tracking: '300 per 3600 s',
    });
  });
});

describe('site-wide ceilings on public writes', () => {
  it('bookings: past the ceiling, a new address gets 429 with nothing written, and room returns as the hour slides', async () => {
    freshHour();
    for (let index = 0; index < CEILING; index += 1) expect((await book()).status).toBe(201);
    const before = { bookings: await count(bookings), outbox: await count(emailOutbox) };

    const retryAfter = await expectRefused(await book());
    expect(await expectRefused(await book())).toBe(retryAfter);
    expect({ bookings: await count(bookings), outbox: await count(emailOutbox) }).toEqual(before);

    // Refused requests were given back, so the wait is what the admitted ones set: the second
    // refusal was told the same time as the first, and one more is admitted just then.
    advance(retryAfter - 1);
    await expectRefused(await book());
    advance(1);
    expect((await book()).status).toBe(201);
  });

  it('bookings: junk and a client refused by its own limit spend none of the site’s room', async () => {
    freshHour();
    const app = appWithBookingCeiling(2);
    const post = (body: unknown, client = freshClient()) => app.request('/api/bookings', jsonRequest(body), client);
    const busy = freshClient();
    // 20 an hour per client (routes/bookings.ts): twenty empty bodies are refused as bad input,
    // then its own wall stops it; none of it takes anything from the site's 2.
    for (let index = 0; index < 20; index += 1) expect((await post({}, busy)).status).toBe(400);
    for (let index = 0; index < 5; index += 1) await expectRefused(await post({}, busy));
    // Bad input from many addresses spends nothing either.
    for (let index = 0; index < 5; index += 1) expect((await post({})).status).toBe(400);
    expect((await post(bookingPayload({ preferredDate: nextDate() }))).status).toBe(201);
    expect((await post(bookingPayload({ preferredDate: nextDate() }))).status).toBe(201);
    await expectRefused(await post(bookingPayload({ preferredDate: nextDate() })));
  });

  it('bookings: the counter starts again in a later window', async () => {
    freshHour();
    for (let index = 0; index < CEILING; index += 1) expect((await book()).status).toBe(201);
    await expectRefused(await book());
    // Two windows on, nothing of the last hour weighs any more.
    advance(2 * 60 * 60);
    for (let index = 0; index < CEILING; index += 1) expect((await book()).status).toBe(201);
    await expectRefused(await book());
  });

  it('contact enquiries: no enquiry and no acknowledgement for a refused one', async () => {
    freshHour();
    for (let index = 0; index < CEILING; index += 1) expect((await enquire()).status).toBe(201);
    const before = { enquiries: await count(contactEnquiries), outbox: await count(emailOutbox) };
    await expectRefused(await enquire());
    expect({ enquiries: await count(contactEnquiries), outbox: await count(emailOutbox) }).toEqual(before);
  });

  it('uploads: single files and files in parts share one ceiling, and a refused one stores nothing', async () => {
    freshHour();
    for (let index = 0; index < CEILING - 1; index += 1) expect((await upload()).status).toBe(201);
    expect((await startParts()).status).toBe(201);
    const before = { files: await count(uploadedFiles), sessions: await count(uploadSessions) };
    await expectRefused(await upload());
    await expectRefused(await startParts());
    expect({ files: await count(uploadedFiles), sessions: await count(uploadSessions) }).toEqual(before);
  });

  it('tracking lookups: many addresses guessing together are stopped too', async () => {
    freshHour();
    for (let index = 0; index < CEILING; index += 1) expect((await track()).status).toBe(404);
    await expectRefused(await track());
  });
});

/** The same database through an app with another booking ceiling. */
function appWithBookingCeiling(limit: number) {
  const app = createApp({ ...ctx.deps, env: { ...ctx.deps.env, SITE_MAX_BOOKINGS_PER_HOUR: limit } });
  return {
    async request(...args: Parameters<typeof app.request>) {
      const response = await app.request(...args);
      await ctx.deps.background.idle();
      return response;
    },
  };
}
