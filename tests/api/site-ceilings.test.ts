import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bookings, contactEnquiries, emailOutbox, uploadedFiles, uploadSessions } from '../../db/schema.ts';
import { addDays } from '../../src/domain/format.ts';
import { createApp } from '../../src/server/api/app.ts';
import { parseEnv } from '../../src/server/env.ts';
import { CHALLENGE_REQUIRED } from '../../src/server/services/limits/challenge.ts';
import { SITE_CEILINGS, siteCeilingRule, type SiteCeiling } from '../../src/server/services/limits/site-ceilings.ts';
import { createTestContext, jsonRequest, TEST_ORIGIN } from '../setup/test-app.ts';
import { bookingPayload, freshClient } from '../fixtures/bookings.ts';
import { solvedHeader } from '../fixtures/challenge.ts';

// Every public call that stores data or sends e-mail to a typed address has a ceiling for the
// whole site besides its per-client limit (site-ceilings.ts admitToSiteCeiling; the numbers and reasons in
// env.ts SITE_MAX_*). Lowered here through the same settings, so a handful of addresses reach them.
const CEILING = 3;
const ctx = await createTestContext({
  SITE_MAX_BOOKINGS_PER_HOUR: CEILING,
  SITE_MAX_ENQUIRIES_PER_HOUR: CEILING,
  SITE_MAX_UPLOADS_PER_HOUR: CEILING,
  SITE_MAX_TRACKING_LOOKUPS_PER_HOUR: CEILING,
  CHALLENGE_MAX_NUMBER: 100,
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

/** Past a ceiling: 428 with a challenge to solve, never a plain refusal (api.md "Abuse and availability"). */
async function expectChallenge(response: Response) {
  expect(response.status).toBe(428);
  const body = await response.json();
  expect(body.error).toBe(CHALLENGE_REQUIRED);
  expect(body.challenge.parameters).toMatchObject({ algorithm: 'PBKDF2/SHA-256' });
  expect(typeof body.challenge.signature).toBe('string');
  return solvedHeader(body.challenge);
}

/** The same request again, carrying a solved challenge. */
const withChallenge = (init: RequestInit, header: string): RequestInit => ({ ...init, headers: { ...(init.headers as Record<string, string>), 'X-Altcha': header } });

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

function upload(headers: Record<string, string> = {}) {
  const form = new FormData();
  form.set('file', new File([PNG], 'logo.png', { type: 'image/png' }));
  return ctx.app.request('/api/upload', { method: 'POST', body: form, headers: { Origin: TEST_ORIGIN, ...headers } }, freshClient());
}
const startParts = (headers: Record<string, string> = {}) =>
  ctx.app.request('/api/upload/parts', jsonRequest({ name: 'Brand guide.pdf', size: 5_000_000 }, { headers }), freshClient());

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

describe('past a site-wide ceiling: proof of work, not refusal', () => {
  it('bookings: a new address gets 428 with a challenge and nothing written; solved, the same booking goes through', async () => {
    freshHour();
    for (let index = 0; index < CEILING; index += 1) expect((await book()).status).toBe(201);
    const before = { bookings: await count(bookings), outbox: await count(emailOutbox) };

    const request = jsonRequest(bookingPayload({ preferredDate: nextDate() }));
    const client = freshClient();
    const header = await expectChallenge(await ctx.app.request('/api/bookings', request, client));
    expect({ bookings: await count(bookings), outbox: await count(emailOutbox) }).toEqual(before);

    const solved = await ctx.app.request('/api/bookings', withChallenge(request, header), client);
    expect(solved.status).toBe(201);
    expect(await count(bookings)).toBe(before.bookings + 1);
  });

  it('a solved challenge is spent once: replayed, tampered or expired, it gets a new challenge instead', async () => {
    freshHour();
    for (let index = 0; index < CEILING; index += 1) expect((await enquire()).status).toBe(201);
    const header = await expectChallenge(await enquire());
    const post = (value: string) => ctx.app.request('/api/contacts', withChallenge(jsonRequest(enquiry), value), freshClient());
    expect((await post(header)).status).toBe(201);
    // The same solution again, from another address: refused, with a fresh challenge.
    await expectChallenge(await post(header));

    const fresh = await expectChallenge(await enquire());
    const payload = JSON.parse(Buffer.from(fresh, 'base64').toString('utf8'));
    const tampered = { ...payload, challenge: { ...payload.challenge, parameters: { ...payload.challenge.parameters, cost: 2 } } };
    await expectChallenge(await post(Buffer.from(JSON.stringify(tampered)).toString('base64')));
    await expectChallenge(await post('not a payload'));
    advance(11 * 60);
    await expectChallenge(await post(fresh));
  });

  it('GET /api/challenge gives a challenge at any time, and its solution lets a request past the ceiling', async () => {
    freshHour();
    const response = await ctx.app.request('/api/challenge?for=tracking', {}, freshClient());
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const header = await solvedHeader(await response.json());
    for (let index = 0; index < CEILING; index += 1) expect((await track()).status).toBe(404);
    // Wrong guesses are refusals: they count for nothing, so a real lookup is still free.
    const real = await ctx.app.request('/api/bookings', jsonRequest(bookingPayload({ preferredDate: nextDate() })), freshClient());
    const { id } = await real.json();
    const lookup = () => jsonRequest({ email: bookingPayload().email, bookingId: id });
    for (let index = 0; index < CEILING; index += 1) expect((await ctx.app.request('/api/track-project', lookup(), freshClient())).status).toBe(200);
    await expectChallenge(await ctx.app.request('/api/track-project', lookup(), freshClient()));
    expect((await ctx.app.request('/api/track-project', withChallenge(lookup(), header), freshClient())).status).toBe(200);
  });

  it('contact enquiries: no enquiry and no acknowledgement until the challenge is solved', async () => {
    freshHour();
    for (let index = 0; index < CEILING; index += 1) expect((await enquire()).status).toBe(201);
    const before = { enquiries: await count(contactEnquiries), outbox: await count(emailOutbox) };
    await expectChallenge(await enquire());
    expect({ enquiries: await count(contactEnquiries), outbox: await count(emailOutbox) }).toEqual(before);
  });

  it('uploads: single files and files in parts share one ceiling; past it each asks for proof of work, then stores', async () => {
    freshHour();
    for (let index = 0; index < CEILING - 1; index += 1) expect((await upload()).status).toBe(201);
    expect((await startParts()).status).toBe(201);
    const before = { files: await count(uploadedFiles), sessions: await count(uploadSessions) };
    const fileHeader = await expectChallenge(await upload());
    const partsHeader = await expectChallenge(await startParts());
    expect({ files: await count(uploadedFiles), sessions: await count(uploadSessions) }).toEqual(before);
    expect((await upload({ 'X-Altcha': fileHeader })).status).toBe(201);
    expect((await startParts({ 'X-Altcha': partsHeader })).status).toBe(201);
  });
});

describe('refusals count for nothing', () => {
  it('bookings: junk, a full date and a client refused by its own limit spend none of the site’s room', async () => {
    freshHour();
    const app = appWithBookingCeiling(2);
    const post = (body: unknown, client = freshClient()) => app.request('/api/bookings', jsonRequest(body), client);
    const busy = freshClient();
    // 20 an hour per client (routes/bookings.ts): twenty empty bodies are refused as bad input,
    // then its own wall stops it; none of it takes anything from the site's 2.
    for (let index = 0; index < 20; index += 1) expect((await post({}, busy)).status).toBe(400);
    for (let index = 0; index < 5; index += 1) expect((await post({}, busy)).status).toBe(429);
    // Bad input from many addresses spends nothing either.
    for (let index = 0; index < 5; index += 1) expect((await post({})).status).toBe(400);
    // A date filled by a paid booking: every attempt at it is a 409, and none counts.
    const full = nextDate();
    await db.insert(bookings).values({ ...paidDay(full) });
    for (let index = 0; index < 6; index += 1) expect((await post(bookingPayload({ preferredDate: full }))).status).toBe(409);
    expect((await post(bookingPayload({ preferredDate: nextDate() }))).status).toBe(201);
    expect((await post(bookingPayload({ preferredDate: nextDate() }))).status).toBe(201);
    expect((await post(bookingPayload({ preferredDate: nextDate() }))).status).toBe(428);
  });

  it('bookings: the counter starts again in a later window', async () => {
    freshHour();
    for (let index = 0; index < CEILING; index += 1) expect((await book()).status).toBe(201);
    await expectChallenge(await book());
    // Two windows on, nothing of the last hour weighs any more.
    advance(2 * 60 * 60);
    for (let index = 0; index < CEILING; index += 1) expect((await book()).status).toBe(201);
    await expectChallenge(await book());
  });

  it('uploads refused for their content (415) or size (413) spend nothing', async () => {
    freshHour();
    const form = new FormData();
    form.set('file', new File([new TextEncoder().encode('plain text, not an image')], 'notes.png', { type: 'image/png' }));
    for (let index = 0; index < CEILING + 2; index += 1) {
      const refused = await ctx.app.request('/api/upload', { method: 'POST', body: form, headers: { Origin: TEST_ORIGIN } }, freshClient());
      expect(refused.status).toBe(415);
    }
    for (let index = 0; index < CEILING + 2; index += 1) {
      const tooLarge = await ctx.app.request('/api/upload/parts', jsonRequest({ name: 'Huge.pdf', size: 20_000_000 }), freshClient());
      expect(tooLarge.status).toBe(413);
    }
    for (let index = 0; index < CEILING; index += 1) expect((await upload()).status).toBe(201);
    await expectChallenge(await upload());
  });
});

/** A booking row that fills its date on its own (paid, the whole day's capacity). */
function paidDay(date: string) {
  return {
    firstName: 'Omar',
    lastName: 'Patel',
    email: 'omar@patelprint.co.uk',
    phone: '0113 496 0000',
    quantity: ctx.deps.env.DAILY_PATCH_CAPACITY,
    locationAddress: 'Briggate, Leeds LS1 6HD',
    workType: 'day' as const,
    preferredDate: date,
    totalPricePence: 59_900,
    paymentStatus: 'paid' as const,
    createdAt: ctx.deps.now(),
  };
}

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
