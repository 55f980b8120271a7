import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { webauthnChallenges } from '../../db/schema.ts';
import { addDays } from '../../src/domain/format.ts';
import { UPLOAD_PART_BYTES } from '../../src/domain/upload-parts.ts';
import { CHALLENGE_ITERATIONS, CHALLENGE_REQUIRED, MAX_COST_FACTOR } from '../../src/server/services/limits/challenge.ts';
import { UPLOAD_QUOTA_MESSAGE } from '../../src/server/services/limits/upload-quota.ts';
import { UPLOAD_PART_MESSAGES } from '../../src/server/api/routes/upload-parts.ts';
import { createTestContext, jsonRequest, TEST_ADMIN_PASSWORD, TEST_ORIGIN } from '../setup/test-app.ts';
import { bookingPayload, freshClient } from '../fixtures/bookings.ts';
import { solvedHeader } from '../fixtures/challenge.ts';

// Issue #33's attacks, replayed as a stranger would (api.md "Abuse and availability"): each test
// first does what broke, then checks that a real customer is still served.
const QUOTA_MB = 12;
const CEILING = 3;
const ctx = await createTestContext({
  UNCLAIMED_UPLOAD_QUOTA_MB: QUOTA_MB,
  UNCLAIMED_UPLOAD_CLIENT_MB: 50,
  SITE_MAX_BOOKINGS_PER_HOUR: CEILING,
  SITE_MAX_ENQUIRIES_PER_HOUR: CEILING,
  CHALLENGE_MAX_NUMBER: 100,
});
const proxied = await createTestContext({ TRUST_PROXY: true });
const db = ctx.deps.db;
const PNG = readFileSync(new URL('../fixtures/logo.png', import.meta.url));
// Part 0 of a PDF: its magic bytes, then filler to the part's exact length.
const pdfPart = (length: number): Uint8Array<ArrayBuffer> => {
  const bytes = new Uint8Array(length).fill(0x20);
  bytes.set(new TextEncoder().encode('%PDF-1.7\n'));
  return bytes;
};

let hour = 0;
function freshHour() {
  hour += 3;
  ctx.setNow(new Date(Date.UTC(2026, 10, 23, 0) + hour * 3_600_000 + 60_000));
}
const advanceMinutes = (minutes: number) => ctx.setNow(new Date(ctx.deps.now().getTime() + minutes * 60_000));

function upload(client = freshClient(), headers: Record<string, string> = {}) {
  const form = new FormData();
  form.set('file', new File([PNG], 'logo.png', { type: 'image/png' }));
  return ctx.app.request('/api/upload', { method: 'POST', body: form, headers: { Origin: TEST_ORIGIN, ...headers } }, client);
}
const openParts = (client: ReturnType<typeof freshClient>, size: number) =>
  ctx.app.request('/api/upload/parts', jsonRequest({ name: 'Brand guide.pdf', size }), client);
const sendPart = (client: ReturnType<typeof freshClient>, uploadId: string, index: number, bytes: Uint8Array<ArrayBuffer>) =>
  ctx.app.request(`/api/upload/parts/${uploadId}/${index}`, { method: 'PUT', body: bytes, headers: { Origin: TEST_ORIGIN, 'Content-Type': 'application/octet-stream' } }, client);

describe('row 1: no wall made of promises', () => {
  it('50 declared 10 MB part uploads that send nothing leave every customer’s upload open', async () => {
    freshHour();
    const statuses: number[] = [];
    for (let address = 0; address < 10; address += 1) {
      const attacker = freshClient();
      for (let session = 0; session < 5; session += 1) statuses.push((await openParts(attacker, 10 * 1024 * 1024)).status);
    }
    expect(statuses.every((status) => status === 201)).toBe(true);
    // A customer uploads at once, with no challenge: declared sizes hold no room.
    expect((await upload()).status).toBe(201);
  });

  it('counts the bytes a part upload received, and a session idle for 15 minutes ends and counts for nothing', async () => {
    freshHour();
    await db.execute(sql`delete from upload_sessions`);
    await db.execute(sql`delete from uploaded_files`);
    const sender = freshClient();
    const opened = await (await openParts(sender, 2 * UPLOAD_PART_BYTES + 1000)).json();
    expect((await sendPart(sender, opened.uploadId, 0, pdfPart(UPLOAD_PART_BYTES))).status).toBe(200);
    expect((await sendPart(sender, opened.uploadId, 1, pdfPart(UPLOAD_PART_BYTES))).status).toBe(200);
    // 8 MB received of a 12 MB quota: a fresh client's 5 MB would pass it, so it pays in work.
    const past = await openParts(freshClient(), 5 * 1024 * 1024);
    expect(past.status).toBe(428);

    advanceMinutes(16);
    const late = await sendPart(sender, opened.uploadId, 2, pdfPart(1000));
    expect(late.status).toBe(404);
    expect((await late.json()).error).toBe(UPLOAD_PART_MESSAGES.notFound);
    // The idle session's 8 MB no longer count: the same 5 MB upload opens at once.
    expect((await openParts(freshClient(), 5 * 1024 * 1024)).status).toBe(201);
  });

  it('past the site quota a client that stored nothing pays in work (428, then 201), one that stored files gets 429', async () => {
    freshHour();
    await db.execute(sql`delete from upload_sessions`);
    await db.execute(sql`delete from uploaded_files`);
    const filler = freshClient();
    const opened = await (await openParts(filler, 2 * UPLOAD_PART_BYTES + 1000)).json();
    const second = await (await openParts(filler, 2 * UPLOAD_PART_BYTES)).json();
    expect((await sendPart(filler, opened.uploadId, 0, pdfPart(UPLOAD_PART_BYTES))).status).toBe(200);
    expect((await sendPart(filler, opened.uploadId, 1, pdfPart(UPLOAD_PART_BYTES))).status).toBe(200);
    expect((await sendPart(filler, opened.uploadId, 2, pdfPart(1000))).status).toBe(200);
    expect((await ctx.app.request(`/api/upload/parts/${opened.uploadId}/complete`, jsonRequest({}), filler)).status).toBe(201);
    expect((await sendPart(filler, second.uploadId, 0, pdfPart(UPLOAD_PART_BYTES))).status).toBe(200);

    // The quota is full (over 12 MB stored). The one who filled it is refused.
    const again = await upload(filler);
    expect(again.status).toBe(429);
    expect((await again.json()).error).toBe(UPLOAD_QUOTA_MESSAGE);

    const customer = freshClient();
    const asked = await upload(customer);
    expect(asked.status).toBe(428);
    const body = await asked.json();
    expect(body.error).toBe(CHALLENGE_REQUIRED);
    expect((await upload(customer, { 'X-Altcha': await solvedHeader(body.challenge) })).status).toBe(201);
  });
});

let bookingDay = 0;
describe('row 4: work that costs what it says', () => {
  const book = (headers: Record<string, string> = {}) =>
    ctx.app.request('/api/bookings', jsonRequest(bookingPayload({ preferredDate: addDays('2027-07-01', (bookingDay += 1)) }), { headers }), freshClient());
  const enquire = (headers: Record<string, string> = {}) =>
    ctx.app.request(
      '/api/contacts',
      jsonRequest(
        { firstName: 'Amira', lastName: 'Khan', email: 'amira@northernroasters.co.uk', phone: '0161 496 0000', inquiryType: 'Custom Quote', message: 'Twenty patches in Leeds, please.', website: '' },
        { headers },
      ),
      freshClient(),
    );

  it('a challenge names its ceiling: one solved for bookings opens no enquiry', async () => {
    freshHour();
    for (let index = 0; index < CEILING; index += 1) await enquire();
    for (let index = 0; index < CEILING; index += 1) await book();
    const bookingChallenge = (await (await book()).json()).challenge;
    expect(bookingChallenge.parameters.data.purpose).toBe('bookings');
    const header = await solvedHeader(bookingChallenge);
    const misused = await enquire({ 'X-Altcha': header });
    expect(misused.status).toBe(428);
    expect((await book({ 'X-Altcha': header })).status).toBe(201);
  });

  it('solved requests count toward the pressure: the price rises, and GET /api/challenge asks the current price', async () => {
    freshHour();
    const priceNow = async () => (await (await ctx.app.request('/api/challenge?for=bookings', {}, freshClient())).json()).parameters.cost as number;
    expect(await priceNow()).toBe(CHALLENGE_ITERATIONS);
    for (let index = 0; index < CEILING; index += 1) expect((await book()).status).toBe(201);
    const costs: number[] = [];
    for (let index = 0; index < 3 * CEILING; index += 1) {
      const asked = await book();
      const { challenge } = await asked.json();
      costs.push(challenge.parameters.cost);
      expect((await book({ 'X-Altcha': await solvedHeader(challenge) })).status).toBe(201);
    }
    expect(costs[0]).toBe(CHALLENGE_ITERATIONS);
    expect(costs.at(-1)).toBe(MAX_COST_FACTOR * CHALLENGE_ITERATIONS);
    expect(await priceNow()).toBe(MAX_COST_FACTOR * CHALLENGE_ITERATIONS);
    // Without a ceiling named, the call says which ones exist.
    expect((await ctx.app.request('/api/challenge', {}, freshClient())).status).toBe(400);
  });
});

describe('row 5: the client behind TRUST_PROXY', () => {
  const signIn = (forwardedFor: string) =>
    proxied.app.request('/api/admin/login', jsonRequest({ email: 'nobody@team.example', password: 'not the password' }, { headers: { 'X-Forwarded-For': forwardedFor } }), {
      incoming: { socket: { remoteAddress: '127.0.0.1' } },
    });

  it('is the right-most entry the proxy appended: a client writing new left-most values is still one client', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt += 1) statuses.push((await signIn(`198.51.100.${attempt}, 203.0.113.7`)).status);
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
    // Another real client behind the same proxy is untouched.
    expect((await proxied.app.request('/api/admin/login', jsonRequest({ password: TEST_ADMIN_PASSWORD }, { headers: { 'X-Forwarded-For': '203.0.113.8' } }))).status).toBe(204);
   }, 120_000);

  it('must parse as an IP address: anything else falls back to the socket’s address, and IPv6 counts by /64', async () => {
    const junk = [];
    for (let attempt = 0; attempt < 11; attempt += 1) junk.push((await signIn(`made-up-${attempt}`)).status);
    expect(junk[10]).toBe(429);
    const ipv6 = [];
    for (let attempt = 0; attempt < 11; attempt += 1) ipv6.push((await signIn(`2001:db8:7:7::${attempt + 1}`)).status);
    expect(ipv6[10]).toBe(429);
   }, 120_000);
});

describe('row 8: anonymous calls that write rows', () => {
  it('passkey sign-in options have a per-client limit', async () => {
    const stranger = freshClient();
    const before = (await db.select({ n: sql<number>`cast(count(*) as integer)` }).from(webauthnChallenges))[0]!.n;
    const statuses: number[] = [];
    for (let call = 0; call < 40; call += 1) statuses.push((await ctx.app.request('/api/admin/passkeys/login/options', jsonRequest({}), stranger)).status);
    const written = (await db.select({ n: sql<number>`cast(count(*) as integer)` }).from(webauthnChallenges))[0]!.n - before;
    expect(statuses.filter((status) => status === 429).length).toBe(10);
    expect(written).toBe(30);
    // Someone else signing in with a passkey still gets options.
    expect((await ctx.app.request('/api/admin/passkeys/login/options', jsonRequest({}), freshClient())).status).toBe(200);
  });
});
