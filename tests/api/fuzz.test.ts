import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { bookings } from '../../db/schema.ts';
import { freshClient } from '../fixtures/bookings.ts';
import { adminCookie } from '../setup/admin.ts';
import { createTestContext, TEST_ORIGIN } from '../setup/test-app.ts';
import { fuzzSettings } from '../setup/fuzz.ts';

/**
 * Property: whatever arrives at any API route (body, query, path parameters; signed in as an
 * admin or not), the answer is a 2xx/3xx/4xx (or the 503 of a provider that is not configured)
 * in api.md's error shape, never a 500, and nothing half-written is left behind. Routes are read
 * from the app itself, so a new endpoint is fuzzed without anyone listing it. A fixed seed in
 * `npm test`; `npm run fuzz` runs many more cases with a random seed it prints.
 */
// No outside service is configured, and the geocoder is off: nothing leaves this machine.
const ctx = await createTestContext({ GEOCODER_URL: 'off' });
const cookie = await adminCookie(ctx);
const { seed, runs } = fuzzSettings();

const FIELD_NAMES = [
  'firstName', 'lastName', 'businessName', 'email', 'phone', 'preferredDate', 'quantity', 'locationAddress',
  'specialInstructions', 'totalPrice', 'locationCoordinates', 'workType', 'uploadedFiles', 'bookingId', 'checkoutToken',
  'amount', 'token', 'rating', 'reviewText', 'serviceQuality', 'timeliness', 'communication', 'inquiryType', 'message',
  'password', 'code', 'status', 'currentStep', 'statusNotes', 'notes', 'date', 'reason', 'workerEmail', 'workerName',
  'path', 'eventName', 'timestamp', 'referrer', 'userAgent', 'name', 'active', 'q', 'limit', 'cursor', 'size',
];

const scalar = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom('', ' ', '0', '-1', '2027-07-14', '9999-12-31', 'a@b.co', '<script>', '\u0000', '\u202e', '1e309', '__proto__'),
);
const value = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.dictionary(fc.constantFrom(...FIELD_NAMES), scalar, { maxKeys: 3 }));
const body = fc.oneof(
  fc.dictionary(fc.constantFrom(...FIELD_NAMES), value, { maxKeys: 8 }).map((object) => JSON.stringify(object)),
  fc.jsonValue({ maxDepth: 3 }).map((json) => JSON.stringify(json)),
  fc.string({ maxLength: 60 }),
  fc.constantFrom('', '{', '[]', 'null', '{"__proto__":{"x":1}}', '[[[[[[[[[[]]]]]]]]]]'),
);
const pathValue = fc.oneof(fc.nat({ max: 50 }).map(String), fc.integer().map(String), fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom('0', '-1', '1e3', '..', '%00'));
// Query values include what PostgreSQL text cannot hold (U+0000) and what it may choke on.
const queryValue = fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('\u0000', 'a\u0000b', '\u202e', '%', '\\', "'"));
const query = fc.dictionary(
  fc.constantFrom(...FIELD_NAMES, 'archived', 'email', 'channel', 'severity', 'search', 'action', 'payment_intent', 'client_secret', 'lat', 'lng'),
  queryValue,
  { maxKeys: 3 },
);

const routes = ctx.app.routes
  .filter((route) => route.method !== 'ALL' && route.path.startsWith('/api/') && !route.path.includes('*'))
  .filter((route, index, all) => all.findIndex((other) => other.method === route.method && other.path === route.path) === index);

/** Providers this test app runs without (payments, Uploadcare, the geocoder) answer 503, saying so. */
const ALLOWED_503 = /^\/api\/(create-payment-intent|payments\/|stripe\/|upload\/uploadcare|geocode\/)/;

describe('fuzzing every API route', () => {
  it('finds the routes to fuzz', () => {
    expect(routes.length).toBeGreaterThan(10);
  });

  it.each(routes.map((route) => [`${route.method} ${route.path}`, route] as const))('%s never answers 500', async (_name, route) => {
    await fc.assert(
      fc.asyncProperty(body, pathValue, query, fc.boolean(), async (payload, param, search, asAdmin) => {
        const path = route.path.replace(/:[A-Za-z]+(\{[^}]*\})?/g, () => encodeURIComponent(param));
        const url = `${path}?${new URLSearchParams(search).toString()}`;
        const headers: Record<string, string> = { Origin: TEST_ORIGIN, 'Content-Type': 'application/json' };
        if (asAdmin) headers.Cookie = cookie;
        const hasBody = route.method !== 'GET' && route.method !== 'HEAD';
        const response = await ctx.app.request(url, { method: route.method, headers, body: hasBody ? payload : undefined }, freshClient());
        const allowed = response.status < 500 || (response.status === 503 && ALLOWED_503.test(route.path));
        if (!allowed) throw new Error(`${route.method} ${url} answered ${response.status}: ${await response.text()}`);
        if (response.status >= 400) {
          const json = (await response.json()) as { error?: unknown };
          expect(typeof json.error).toBe('string');
        }
      }),
      { seed, numRuns: runs, endOnFailure: true },
    );
  });

  it('leaves no half-written booking behind', async () => {
    const orphans = await ctx.deps.db
      .select({ id: bookings.id })
      .from(bookings)
      .where(sql`not exists (select 1 from booking_locations l where l.booking_id = ${bookings.id})`);
    expect(orphans).toEqual([]);
  });
});
