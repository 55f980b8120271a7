import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { channelLogs } from '../../db/schema.ts';
import { createTestContext, jsonRequest } from '../setup/test-app.ts';
import { adminCookie, adminRequest } from '../setup/admin.ts';
import { writeChannelLog } from '../../src/server/services/messages/channel-log.ts';

const ctx = await createTestContext();
const NOW = new Date('2026-11-22T10:00:00Z');
const HOUR = 60 * 60 * 1000;
let cookie: string;

type Row = typeof channelLogs.$inferInsert;
const at = (hoursAgo: number) => new Date(NOW.getTime() - hoursAgo * HOUR);

// 12 known rows at known times; the newest is 1 hour old.
const SEEDED: Row[] = [
  { timestamp: at(1), channel: 'booking', action: 'booking_created', entityType: 'booking', entityId: '41', details: 'Booking #41 created: 5 standard patches' },
  { timestamp: at(2), channel: 'email', action: 'email_sent', entityType: 'booking', entityId: '41', details: 'Confirmation e-mail sent' },
  { timestamp: at(3), channel: 'email', action: 'email_failed', severity: 'error', entityType: 'booking', entityId: '41', details: 'SendGrid answered 500' },
  { timestamp: at(5), channel: 'admin', action: 'login', userId: 'admin:abc', ipAddress: 'hashedkey', details: 'Admin signed in' },
  { timestamp: at(23), channel: 'notification', action: 'workers_notified', severity: 'warning', details: 'Two routes, one without a postcode' },
  { timestamp: at(25), channel: 'database', action: 'maintenance', details: 'Expired rows removed: 100% done_ok', metadata: { removed: 3 } },
  { timestamp: at(30), channel: 'booking', action: 'booking_created', entityType: 'booking', entityId: '40', details: 'Booking #40 created' },
  { timestamp: at(48), channel: 'booking', action: 'payment_failed', severity: 'critical', entityType: 'booking', entityId: '40', details: 'Amount mismatch' },
  { timestamp: at(100), channel: 'email', action: 'email_sent', entityType: 'booking', entityId: '40', details: 'Confirmation e-mail sent' },
  { timestamp: at(7 * 24 + 1), channel: 'booking', action: 'booking_created', entityType: 'booking', entityId: '39', details: 'Booking #39 created' },
  { timestamp: at(30 * 24), channel: 'admin', action: 'booking_updated', entityType: 'booking', entityId: '39', details: 'Status set to completed' },
  { timestamp: at(60 * 24), channel: 'database', action: 'maintenance', details: 'Nothing to remove' },
];

const logs = (query = '') => ctx.app.request(`/api/admin/channel-logs${query}`, adminRequest(cookie));
const body = async (response: Response) => (await response.json()) as { id: number; action: string; timestamp: string; channel: string; severity: string; details: string | null }[];

beforeAll(async () => {
  ctx.setNow(NOW);
  cookie = await adminCookie(ctx);
  // Signing in writes no log here (adminCookie starts the session directly), so the table holds only these.
  await ctx.deps.db.delete(channelLogs);
  await ctx.deps.db.insert(channelLogs).values(SEEDED);
});

describe('channel logs: access', () => {
  it.each(['/api/admin/channel-logs', '/api/admin/channel-logs/stats'])('%s answers 401 without an admin session', async (path) => {
    const response = await ctx.app.request(path);
    expect(response.status).toBe(401);
    expect((await response.json()).error).toBe('Please sign in to the admin dashboard.');
  });
});

describe('GET /api/admin/channel-logs', () => {
  it('lists every log newest first with the spec fields', async () => {
    const response = await logs();
    expect(response.status).toBe(200);
    const rows = await body(response);
    expect(rows).toHaveLength(SEEDED.length);
    expect(rows.map((row) => row.timestamp)).toEqual(SEEDED.map((row) => row.timestamp!.toISOString()));
    expect(Object.keys(rows[3]!).sort()).toEqual(
      ['action', 'channel', 'details', 'entityId', 'entityType', 'id', 'ipAddress', 'metadata', 'severity', 'timestamp', 'userId', 'userName'].sort(),
    );
    expect(rows[3]).toMatchObject({ channel: 'admin', action: 'login', userId: 'admin:abc', ipAddress: 'hashedkey', severity: 'info' });
    expect(response.headers.get('X-Next-Cursor')).toBeNull();
  });

  it.each([
    ['?channel=email', ['email_sent', 'email_failed', 'email_sent']],
    ['?severity=critical', ['payment_failed']],
    ['?severity=warning', ['workers_notified']],
    ['?action=booking_created', ['booking_created', 'booking_created', 'booking_created']],
    ['?entityType=booking&channel=email', ['email_sent', 'email_failed', 'email_sent']],
    ['?channel=booking&severity=critical', ['payment_failed']],
    ['?channel=&severity=', SEEDED.map((row) => row.action)],
  ])('filters %s', async (query, actions) => {
    const response = await logs(query);
    expect(response.status).toBe(200);
    expect((await body(response)).map((row) => row.action)).toEqual(actions);
  });

  it.each([
    // Details, action and entity id, whatever the case.
    ['SENDGRID', ['email_failed']],
    ['workers_NOTIFIED', ['workers_notified']],
    ['40', ['booking_created', 'payment_failed', 'email_sent']],
    // % and _ are literal characters, not patterns.
    ['100%', ['maintenance']],
    ['%', ['maintenance']],
    ['e_ok', ['maintenance']],
    ['nothing like this', []],
  ])('searches for %j', async (search, actions) => {
    const response = await logs(`?search=${encodeURIComponent(search)}`);
    expect(response.status).toBe(200);
    expect((await body(response)).map((row) => row.action)).toEqual(actions);
  });

  it.each([
    ['?channel=sms', 'Channel must be one of booking, email, notification, admin, database'],
    ['?severity=debug', 'Severity must be one of info, warning, error, critical'],
    ['?limit=501', 'Limit must be a whole number from 1 to 500'],
    ['?limit=0', 'Limit must be a whole number from 1 to 500'],
    ['?limit=ten', 'Limit must be a whole number from 1 to 500'],
    ['?cursor=not-a-cursor', 'Cursor is not valid'],
  ])('refuses %s with 400', async (query, message) => {
    const response = await logs(query);
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe(message);
  });

  it('pages by cursor without gaps or repeats, and says when the last page is reached', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await logs(`?limit=5${cursor ? `&cursor=${cursor}` : ''}`);
      expect(response.status).toBe(200);
      const rows = await body(response);
      seen.push(...rows.map((row) => row.timestamp));
      cursor = response.headers.get('X-Next-Cursor');
      pages += 1;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(SEEDED.map((row) => row.timestamp!.toISOString()));
  });

  it('keeps filters across pages and orders rows with the same timestamp by id', async () => {
    const same = new Date('2026-11-22T09:30:00.123456Z');
    const inserted = await ctx.deps.db
      .insert(channelLogs)
      .values([0, 1, 2].map((index) => ({ timestamp: same, channel: 'notification' as const, action: `tie_${index}` })))
      .returning({ id: channelLogs.id });
    const first = await logs('?channel=notification&limit=2');
    const second = await logs(`?channel=notification&limit=2&cursor=${first.headers.get('X-Next-Cursor')}`);
    const actions = [...(await body(first)), ...(await body(second))].map((row) => row.action);
    expect(actions).toEqual(['tie_2', 'tie_1', 'tie_0', 'workers_notified']);
    await ctx.deps.db.delete(channelLogs).where(eq(channelLogs.channel, 'notification'));
    await ctx.deps.db.insert(channelLogs).values(SEEDED.filter((row) => row.channel === 'notification'));
    expect(inserted).toHaveLength(3);
  });

  it('answers 50 by default and up to 500 when asked', async () => {
    const many = Array.from({ length: 520 }, (_, index) => ({
      timestamp: new Date(NOW.getTime() - 90 * 24 * HOUR - index * 1000),
      channel: 'database' as const,
      action: 'bulk',
    }));
    await ctx.deps.db.insert(channelLogs).values(many);
    expect(await body(await logs())).toHaveLength(50);
    const max = await logs('?limit=500');
    expect(await body(max)).toHaveLength(500);
    expect(max.headers.get('X-Next-Cursor')).not.toBeNull();
    await ctx.deps.db.delete(channelLogs).where(eq(channelLogs.action, 'bulk'));
  });
});

describe('GET /api/admin/channel-logs/stats', () => {
  it('counts all logs, the last 24 hours and 7 days, per channel and per severity', async () => {
    const response = await ctx.app.request('/api/admin/channel-logs/stats', adminRequest(cookie));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      totalLogs: 12,
      logsLast24Hours: 5,
      logsLast7Days: 9,
      topChannels: [
        { channel: 'booking', count: 4 },
        { channel: 'email', count: 3 },
        { channel: 'admin', count: 2 },
        { channel: 'database', count: 2 },
        { channel: 'notification', count: 1 },
      ],
      severityDistribution: [
        { severity: 'info', count: 9 },
        { severity: 'critical', count: 1 },
        { severity: 'error', count: 1 },
        { severity: 'warning', count: 1 },
      ],
    });
  });

  it('moves its windows with the clock', async () => {
    ctx.setNow(new Date(NOW.getTime() + 72 * HOUR));
    const stats = await (await ctx.app.request('/api/admin/channel-logs/stats', adminRequest(await adminCookie(ctx)))).json();
    ctx.setNow(NOW);
    expect(stats).toMatchObject({ totalLogs: 12, logsLast24Hours: 0, logsLast7Days: 8 });
  });
});

describe('no secrets in logs', () => {
  it('redacts secret-named metadata and card numbers as they are written', async () => {
    await writeChannelLog(ctx.deps.db, {
      channel: 'admin',
      action: 'redaction_check',
      details: 'Customer read out 4242 4242 4242 4242 on the phone',
      metadata: { password: 'hunter2', code: '123456', bookingId: 7, postcode: 'SW1A 1AA' },
    });
    const [row] = await body(await logs('?action=redaction_check'));
    expect(row!.details).toBe('Customer read out [redacted] on the phone');
    expect((row as unknown as { metadata: unknown }).metadata).toEqual({ password: '[redacted]', code: '[redacted]', bookingId: 7, postcode: 'SW1A 1AA' });
    await ctx.deps.db.delete(channelLogs).where(eq(channelLogs.action, 'redaction_check'));
  });

  it('stores the hashed client key, never the raw address, when an admin signs in', async () => {
    await ctx.app.request('/api/admin/login', jsonRequest({ password: 'wrong' }, { headers: { 'X-Forwarded-For': '203.0.113.9' } }));
    const rows = await ctx.deps.db.select().from(channelLogs).where(eq(channelLogs.channel, 'admin'));
    const fresh = rows.filter((row) => row.userId !== 'admin:abc' && row.action !== 'booking_updated');
    expect(fresh.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain('203.0.113.9');
    expect(JSON.stringify(rows)).not.toContain('127.0.0.1');
  });
});
