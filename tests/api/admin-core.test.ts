import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { bookings, channelLogs, contactEnquiries, emailOutbox } from '../../db/schema.ts';
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
const PUBLIC_ADMIN_ROUTES = new Set([
  'POST /api/admin/login',
  'POST /api/admin/logout',
  'GET /api/admin/session',
  // The link's token or the passkey is the proof (api.md "Staff accounts").
  'POST /api/admin/invitations/inspect',
  'POST /api/admin/invitations/accept',
  'POST /api/admin/passkeys/login/options',
  'POST /api/admin/passkeys/login',
]);

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

const urlOf = (path: string) => path.replace(/:fileName\b[^/]*/g, 'photo.jpg').replace(/:[A-Za-z]+(\{[^}]*\})?/g, '1');

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
    const response = await ctx.app.request(urlOf(path), {
      method,
      headers: { Origin: TEST_ORIGIN, 'Content-Type': 'application/json' },
      body: method === 'GET' || method === 'HEAD' ? undefined : '{}',
    });
    expect(response.status).toBe(401);
    expect(typeof (await response.json()).error).toBe('string');
  });
});

/**
 * The role each admin route needs (api.md "Staff accounts"): `viewer` reads, `staff` does the daily
 * work, `owner` manages accounts and privacy requests; `self` is one's own account (any role).
 * Every admin route of the app must have a row, so a new route cannot skip its role check.
 */
const ROUTE_ROLES: Record<string, 'viewer' | 'staff' | 'owner' | 'self'> = {
  'GET /api/analytics/summary': 'viewer',
  'GET /api/files/:fileName': 'viewer',
  'GET /api/admin/users': 'owner',
  'POST /api/admin/users': 'owner',
  'PATCH /api/admin/users/:id': 'owner',
  'POST /api/admin/users/:id/invitation': 'owner',
  'POST /api/admin/users/:id/password-reset': 'owner',
  'GET /api/admin/me': 'self',
  'PATCH /api/admin/me': 'self',
  'GET /api/admin/me/sessions': 'self',
  'DELETE /api/admin/me/sessions/:id': 'self',
  'DELETE /api/admin/me/sessions': 'self',
  'DELETE /api/admin/me/passkeys/:id': 'self',
  'POST /api/admin/me/totp/setup': 'self',
  'POST /api/admin/me/totp/confirm': 'self',
  'DELETE /api/admin/me/totp': 'self',
  'POST /api/admin/passkeys/register/options': 'self',
  'POST /api/admin/passkeys/register': 'self',
  'GET /api/admin/privacy/export': 'owner',
  'POST /api/admin/privacy/erase': 'owner',
  'GET /api/completion/stats': 'viewer',
  'GET /api/completion/bookings': 'viewer',
  'POST /api/completion/:id/send-email': 'staff',
  'POST /api/completion/:id/send-review-request': 'staff',
  'GET /api/admin/reviews': 'viewer',
  'POST /api/admin/reviews/:id/hide': 'staff',
  'POST /api/admin/reviews/:id/restore': 'staff',
  'GET /api/admin/projects': 'viewer',
  'PATCH /api/admin/bookings/:id/progress': 'staff',
  'POST /api/admin/bookings/:id/notes': 'staff',
  'DELETE /api/progress-logs/:id': 'staff',
  'POST /api/bookings/:id/photos': 'staff',
  'DELETE /api/photos/:id': 'staff',
  'POST /api/photos/:id/hide': 'staff',
  'POST /api/photos/:id/show': 'staff',
  'GET /api/admin/stats': 'viewer',
  'GET /api/admin/export/bookings.csv': 'viewer',
  'GET /api/admin/export/contacts.csv': 'viewer',
  'GET /api/admin/invoices.csv': 'viewer',
  'GET /api/bookings': 'viewer',
  'PATCH /api/bookings/:id/status': 'staff',
  'PATCH /api/bookings/:id/archive': 'staff',
  'PATCH /api/bookings/:id/unarchive': 'staff',
  'GET /api/contacts': 'viewer',
  'POST /api/admin/bookings/archive-tests': 'staff',
  'GET /api/admin/blocked-dates': 'viewer',
  'POST /api/admin/blocked-dates': 'staff',
  'DELETE /api/admin/blocked-dates/:date': 'staff',
  'GET /api/admin/schedule': 'viewer',
  'PUT /api/admin/schedule/days/:date': 'staff',
  'POST /api/admin/bookings/:id/reschedule': 'staff',
  'POST /api/admin/weather-days/preview': 'staff',
  'POST /api/admin/weather-days': 'staff',
  'GET /api/admin/channel-logs/stats': 'viewer',
  'GET /api/admin/channel-logs': 'viewer',
  'GET /api/locations/regions': 'viewer',
  'GET /api/locations/grouping': 'viewer',
  'GET /api/admin/workers': 'viewer',
  'POST /api/admin/workers': 'staff',
  'PATCH /api/admin/workers/:id': 'staff',
  'DELETE /api/admin/workers/:id': 'staff',
  'GET /api/worker-notifications/preview': 'viewer',
  'POST /api/worker-notifications/send': 'staff',
  'POST /api/admin/bookings/:id/proofs': 'staff',
  'POST /api/admin/stencil-changes/:id/waive': 'staff',
  'GET /api/admin/bookings/:id/messages': 'viewer',
  'GET /api/admin/messages': 'viewer',
  'GET /api/admin/messages/:id': 'viewer',
  'GET /api/admin/messages/:id/attachments/:n': 'viewer',
  'POST /api/admin/messages/:id/resend': 'staff',
  'GET /api/admin/crew/day': 'viewer',
  'PUT /api/admin/crew/assignments': 'staff',
  'POST /api/admin/crew/workers/:id/revoke': 'staff',
  'POST /api/admin/crew/workers/:id/resend': 'staff',
};

const RANK = { viewer: 0, self: 0, staff: 1, owner: 2 } as const;

describe('every admin route checks the role it needs', () => {
  const routes = adminRoutesOfApp().map((route) => `${route.method} ${route.path}`);
  // The messages routes act on an e-mail about no account: account e-mails (staff-*) are the
  // owner's alone whatever the route's role (api.md "Second factor and links"), and the calls
  // above (a password reset) write such e-mails.
  let messageId = 0;
  const urlFor = (path: string) => (path.startsWith('/api/admin/messages/:id') ? path.replace(':id', String(messageId)) : urlOf(path));

  it('has a role for every admin route of the app, and no row for a route that is gone', () => {
    expect(routes.filter((key) => !(key in ROUTE_ROLES))).toEqual([]);
    expect(Object.keys(ROUTE_ROLES).filter((key) => !routes.includes(key))).toEqual([]);
  });

  const cases = routes.flatMap((key) => (['owner', 'staff', 'viewer'] as const).map((role) => [key, role] as const));
  it.each(cases)('%s as %s', async (key, role) => {
    if (!messageId) {
      const [row] = await db
        .insert(emailOutbox)
        .values({ kind: 'enquiry-acknowledgement', to: 'omar@patelprint.co.uk', subject: 'Thanks', text: 'Thanks', dedupeKey: 'admin-core:message' })
        .returning({ id: emailOutbox.id });
      messageId = row!.id;
    }
    const [method, path] = key.split(' ') as [string, string];
    const needed = ROUTE_ROLES[key]!;
    // A fresh account and session each time: a call may end its own session (sign out everywhere).
    const cookie = await adminCookie(ctx, role);
    const response = await ctx.app.request(urlFor(path), {
      method,
      headers: { Cookie: cookie, Origin: TEST_ORIGIN, 'Content-Type': 'application/json' },
      body: method === 'GET' || method === 'HEAD' ? undefined : '{}',
    });
    if (RANK[role] >= RANK[needed]) {
      expect([401, 403]).not.toContain(response.status);
      expect(response.status).toBeLessThan(500);
    } else {
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ error: 'Your role cannot do this' });
    }
  });
});
