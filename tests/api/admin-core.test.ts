import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { bookings, channelLogs, contactEnquiries } from '../../db/schema.ts';
import { createTestContext, TEST_ORIGIN } from '../setup/test-app.ts';
import { adminCookie, adminRequest } from '../setup/admin.ts';

const ctx = await createTestContext();
const db = ctx.deps.db;

interface Seed {
  status?: string;
  archived?: boolean;
  isTest?: boolean;
  pence?: number;
  firstName?: string;
}

async function insertBooking({ status = 'pending', archived = false, isTest = false, pence = 10_000, firstName = 'Omar' }: Seed) {
  await db.insert(bookings).values({
    firstName,
    lastName: 'Patel',
    email: 'omar@patelprint.co.uk',
    phone: '+44 113 496 0000',
    quantity: 10,
    locationAddress: 'Briggate, Leeds LS1 6HD',
    workType: 'day',
    preferredDate: '2026-12-01',
    totalPricePence: pence,
    status,
    archived,
    isTest,
  });
}

describe('GET /api/admin/stats', () => {
  it('answers 401 without a session', async () => {
    expect((await ctx.app.request('/api/admin/stats')).status).toBe(401);
  });

  it('counts every booking, and revenue only from completed, non-archived, non-test ones, in pounds', async () => {
    await insertBooking({ status: 'completed', pence: 59_900 }); // counts: £599
    await insertBooking({ status: 'completed', pence: 12_345 }); // counts: £123.45
    await insertBooking({ status: 'completed', pence: 100_000, archived: true }); // archived: no revenue
    await insertBooking({ status: 'completed', pence: 200_000, isTest: true }); // test: no revenue
    await insertBooking({ status: 'confirmed', pence: 300_000 }); // not completed: no revenue
    await insertBooking({ status: 'pending', pence: 400_000 });
    await insertBooking({ status: 'pending', pence: 400_000, archived: true });
    const cookie = await adminCookie(ctx);
    const response = await ctx.app.request('/api/admin/stats', adminRequest(cookie));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      totalBookings: 7,
      pendingBookings: 2,
      completedBookings: 4,
      totalRevenue: 722.45,
    });
  });
});

describe('CSV exports', () => {
  it('answers 401 without a session', async () => {
    expect((await ctx.app.request('/api/admin/export/bookings.csv')).status).toBe(401);
    expect((await ctx.app.request('/api/admin/export/contacts.csv')).status).toBe(401);
  });

  it('sends bookings as a dated UTF-8 attachment with a BOM, quoted and safe from formulas', async () => {
    await insertBooking({ firstName: '=HYPERLINK("http://evil.example","Zoë, click")' });
    ctx.setNow('2026-11-22T23:30:00Z'); // 23:30 in London (GMT) still the 22nd
    const cookie = await adminCookie(ctx);
    const response = await ctx.app.request('/api/admin/export/bookings.csv', adminRequest(cookie));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="cleanpatch-bookings-2026-11-22.csv"');
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    const lines = text.slice(1).split('\r\n');
    expect(lines[0]).toBe(
      'id,createdAt,firstName,lastName,businessName,email,phone,quantity,locationAddress,postcode,region,workType,preferredDate,totalPrice,status,currentStep,paymentStatus,archived,isTest',
    );
    const evil = lines.find((line) => line.includes('HYPERLINK'))!;
    expect(evil).toContain(`"'=HYPERLINK(""http://evil.example"",""Zoë, click"")"`);
    expect(evil).toContain(`'+44 113 496 0000`);
    expect(evil).toContain(',100.00,Pending,');
    const logs = await db.select().from(channelLogs).where(eq(channelLogs.action, 'export'));
    expect(logs.map((log) => log.details)).toContain('Exported bookings as CSV');
  });

  it('writes a project step status in words, not its code', async () => {
    await insertBooking({ status: 'installation_scheduled', firstName: 'Nadia' });
    const response = await ctx.app.request('/api/admin/export/bookings.csv', adminRequest(await adminCookie(ctx)));
    const line = (await response.text()).split('\r\n').find((row) => row.includes('Nadia'))!;
    expect(line).toContain(',Installation scheduled,');
    expect(line).not.toContain('installation_scheduled');
  });

  it('sends enquiries with their messages intact', async () => {
    await db.insert(contactEnquiries).values({
      firstName: 'Ann',
      lastName: 'Lee',
      email: 'ann@lee.co.uk',
      inquiryType: 'Custom Quote',
      message: 'Two lines,\nand "quotes"',
    });
    const cookie = await adminCookie(ctx);
    const response = await ctx.app.request('/api/admin/export/contacts.csv', adminRequest(cookie));
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="cleanpatch-enquiries-\d{4}-\d{2}-\d{2}\.csv"$/);
    const text = await response.text();
    expect(text).toContain('id,createdAt,firstName,lastName,email,phone,inquiryType,message\r\n');
    expect(text).toContain('Ann,Lee,ann@lee.co.uk,,Custom Quote,"Two lines,\nand ""quotes"""\r\n');
  });
});

/**
 * Every admin route answers 401 without a session. The list is read from the app itself, so a
 * route added later under an admin path is checked without anyone remembering to add it here.
 */
const PUBLIC_ADMIN_ROUTES = new Set(['POST /api/admin/login', 'POST /api/admin/logout', 'GET /api/admin/session']);

/** api.md's admin calls outside /api/admin: [method or '*', path pattern]. */
const ADMIN_PATHS: [string, RegExp][] = [
  ['*', /^\/api\/admin\//],
  ['GET', /^\/api\/bookings$/],
  ['*', /^\/api\/bookings\/:[^/]+\/(status|archive|unarchive)$/],
  ['POST', /^\/api\/bookings\/:[^/]+\/photos$/],
  ['*', /^\/api\/progress-logs\//],
  ['GET', /^\/api\/contacts$/],
  ['*', /^\/api\/analytics\/summary$/],
  ['*', /^\/api\/locations\//],
  ['*', /^\/api\/worker-notifications\//],
  ['*', /^\/api\/completion\//],
  ['*', /^\/api\/photos\//],
  ['*', /^\/api\/files\//],
];

function adminRoutesOfApp() {
  const seen = new Set<string>();
  const found: { method: string; path: string }[] = [];
  for (const route of ctx.app.routes) {
    // Middleware (method ALL, or a trailing wildcard) is not an endpoint.
    if (route.method === 'ALL' || route.path.endsWith('*')) continue;
    const key = `${route.method} ${route.path}`;
    if (seen.has(key) || PUBLIC_ADMIN_ROUTES.has(key)) continue;
    if (!ADMIN_PATHS.some(([method, pattern]) => (method === '*' || method === route.method) && pattern.test(route.path))) continue;
    seen.add(key);
    found.push({ method: route.method, path: route.path });
  }
  return found;
}

describe('every admin route needs a session', () => {
  const routes = adminRoutesOfApp();

  it('finds the admin routes (the enumeration is not vacuous)', () => {
    const keys = routes.map((route) => `${route.method} ${route.path}`);
    expect(keys).toEqual(expect.arrayContaining(['GET /api/admin/stats', 'GET /api/admin/export/bookings.csv']));
  });

  it.each(routes.map((route) => [route.method, route.path] as const))('%s %s answers 401 without a session', async (method, path) => {
    const url = path.replace(/:fileName\b[^/]*/g, 'photo.jpg').replace(/:[A-Za-z]+(\{[^}]*\})?/g, '1');
    const response = await ctx.app.request(url, {
      method,
      headers: { Origin: TEST_ORIGIN, 'Content-Type': 'application/json' },
      body: method === 'GET' || method === 'HEAD' ? undefined : '{}',
    });
    expect(response.status).toBe(401);
    expect(typeof (await response.json()).error).toBe('string');
  });
});
