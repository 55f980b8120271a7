import { describe, expect, it } from 'vitest';
import { desc } from 'drizzle-orm';
import { pageViews, rateLimits } from '../../db/schema.ts';
import { createApp } from '../../src/server/api/app.ts';
import { consumeRateLimit } from '../../src/server/services/limits/rate-limit.ts';
import { createTestContext, jsonRequest, TEST_ORIGIN } from '../setup/test-app.ts';

const ctx = await createTestContext();
const pageview = { path: '/pricing', timestamp: '2026-11-22T10:00:00.000Z', referrer: '', userAgent: 'Mozilla/5.0' };

describe('error model', () => {
  it('answers unknown /api paths with a JSON 404 and a request id', async () => {
    const response = await ctx.app.request('/api/anything-unknown');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/json');
    const body = await response.json();
    expect(body.error).toBe('Not found');
    expect(body.requestId).toBe(response.headers.get('x-request-id'));
  });

  it('answers a wrong method with 405 and the allowed methods', async () => {
    const response = await ctx.app.request('/api/analytics/pageview', { method: 'GET' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toContain('POST');
    expect((await response.json()).error).toBe('Method not allowed');
  });

  it('answers an unexpected failure with 500, a request id and no internals', async () => {
    const app = createApp(ctx.deps);
    app.get('/api/explode', () => {
      throw new Error('secret connection string postgres://user:pw@host');
    });
    const response = await app.request('/api/explode');
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain('secret');
    expect(text).not.toContain('at ');
    expect(JSON.parse(text)).toMatchObject({ error: expect.any(String), requestId: expect.any(String) });
  });
});

describe('bodies', () => {
  it('answers malformed JSON with 400', async () => {
    const response = await ctx.app.request('/api/analytics/pageview', jsonRequest('{"path": "/", '));
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe('Malformed JSON body');
  });

  it('answers a 2 MB body with 413, never 500', async () => {
    const big = JSON.stringify({ ...pageview, referrer: 'x'.repeat(2 * 1024 * 1024) });
    const response = await ctx.app.request('/api/analytics/pageview', jsonRequest(big));
    expect(response.status).toBe(413);
    expect((await response.json()).error).toMatch(/too large/);
  });

  it('answers a 2 MB body sent without a Content-Length with 413', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream({
      pull(controller) {
        if (sent >= 2 * 1024 * 1024) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const response = await ctx.app.request('/api/analytics/pageview', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: TEST_ORIGIN },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
  });

  it('answers a wrong content type with 415', async () => {
    const response = await ctx.app.request('/api/analytics/pageview', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', Origin: TEST_ORIGIN },
      body: JSON.stringify(pageview),
    });
    expect(response.status).toBe(415);
  });

  it('answers a failed check with 400 and the field that failed', async () => {
    const response = await ctx.app.request('/api/analytics/pageview', jsonRequest({ ...pageview, path: 'no-slash' }));
    expect(response.status).toBe(400);
    expect((await response.json()).fields).toEqual({ path: 'Path must start with /' });
  });
});

describe('cross-site protection', () => {
  it('refuses a POST whose Origin is another site', async () => {
    const response = await ctx.app.request(
      '/api/analytics/pageview',
      jsonRequest(pageview, { headers: { Origin: 'https://evil.example' } }),
    );
    expect(response.status).toBe(403);
    expect((await response.json()).error).toBe('Cross-site requests are not allowed');
  });

  it('refuses a POST a browser marks as cross-site', async () => {
    const response = await ctx.app.request(
      '/api/analytics/pageview',
      jsonRequest(pageview, { headers: { 'Sec-Fetch-Site': 'cross-site' } }),
    );
    expect(response.status).toBe(403);
  });

  it('accepts the site’s own pages', async () => {
    const response = await ctx.app.request(
      '/api/analytics/pageview',
      jsonRequest(pageview, { headers: { 'Sec-Fetch-Site': 'same-origin' } }),
    );
    expect(response.status).toBe(204);
  });
});

describe('security headers', () => {
  it('marks API answers nosniff and no-store, without HSTS outside production', async () => {
    const response = await ctx.app.request('/api/health');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('strict-transport-security')).toBeNull();
    const missing = await ctx.app.request('/api/nope');
    expect(missing.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('gives every API answer, errors included, a policy that loads nothing and cannot be framed', async () => {
    for (const path of ['/api/health', '/api/nope']) {
      const policy = (await ctx.app.request(path)).headers.get('content-security-policy') ?? '';
      expect(policy.split('; ')).toEqual(expect.arrayContaining(["default-src 'none'", "frame-ancestors 'none'"]));
      expect(policy).not.toContain('stripe');
    }
  });

  it('adds HSTS in production', async () => {
    const app = createApp({ ...ctx.deps, env: { ...ctx.deps.env, NODE_ENV: 'production' } });
    const response = await app.request('/api/health');
    expect(response.headers.get('strict-transport-security')).toContain('max-age=');
  });
});

describe('POST /api/analytics/pageview', () => {
  it('stores the view with country and city from the platform, never the address', async () => {
    const response = await ctx.app.request(
      '/api/analytics/pageview',
      jsonRequest({ ...pageview, path: '/gallery', referrer: 'https://search.example/', userAgent: 'A'.repeat(300) }),
      { context: { ip: '203.0.113.9', geo: { city: 'Leeds', country: { code: 'GB', name: 'United Kingdom' } } } },
    );
    expect(response.status).toBe(204);
    const [row] = await ctx.deps.db.select().from(pageViews).orderBy(desc(pageViews.id)).limit(1);
    expect(row).toMatchObject({ path: '/gallery', country: 'United Kingdom', city: 'Leeds', referrer: 'https://search.example/' });
    expect(row!.userAgent).toHaveLength(200);
    expect(JSON.stringify(row)).not.toContain('203.0.113.9');
    const counters = await ctx.deps.db.select().from(rateLimits);
    expect(JSON.stringify(counters)).not.toContain('203.0.113.9');
  });

  it('ignores geo fields sent in the body', async () => {
    await ctx.app.request('/api/analytics/pageview', jsonRequest({ ...pageview, path: '/about', country: 'Narnia', city: 'Cair' }));
    const [row] = await ctx.deps.db.select().from(pageViews).orderBy(desc(pageViews.id)).limit(1);
    expect(row).toMatchObject({ path: '/about', country: null, city: null });
  });

  it('records events for the admin analytics', async () => {
    const response = await ctx.app.request('/api/analytics/event', jsonRequest({ eventName: 'booking_started', path: '/booking' }));
    expect(response.status).toBe(204);
  });
});

describe('rate limiter', () => {
  it('shares one counter between two app instances through the database', async () => {
    // Two separate apps, as two function instances would be, over the same database.
    const first = createApp(ctx.deps);
    const second = createApp(ctx.deps);
    const from = { context: { ip: '198.51.100.7' } };
    const statuses: number[] = [];
    for (let i = 0; i < 120; i += 1) {
      const app = i % 2 === 0 ? first : second;
      statuses.push((await app.request('/api/analytics/event', jsonRequest({ eventName: 'tracking_viewed' }), from)).status);
    }
    expect(statuses.every((status) => status === 204)).toBe(true);
    const limited = await second.request('/api/analytics/event', jsonRequest({ eventName: 'tracking_viewed' }), from);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another client is unaffected.
    const other = await first.request('/api/analytics/event', jsonRequest({ eventName: 'tracking_viewed' }), { context: { ip: '198.51.100.8' } });
    expect(other.status).toBe(204);
  });

  it('counts concurrent requests exactly and lets the burst slide out of the window', async () => {
    const rule = { name: 'concurrency', limit: 5, windowSeconds: 60 };
    const now = new Date('2026-11-22T10:00:10Z');
    const results = await Promise.all(
      Array.from({ length: 8 }, () => consumeRateLimit(ctx.deps.db, rule, 'client', now)),
    );
    expect(results.filter((result) => result.allowed)).toHaveLength(5);
    expect(results.map((result) => result.count).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // A new clock minute is not a new allowance: the burst 50 seconds ago is still in the last minute.
    const nextMinute = await consumeRateLimit(ctx.deps.db, rule, 'client', new Date('2026-11-22T10:01:00Z'));
    expect(nextMinute).toMatchObject({ allowed: false, count: 1 });
    const later = await consumeRateLimit(ctx.deps.db, rule, 'client', new Date('2026-11-22T10:02:00Z'));
    expect(later).toMatchObject({ allowed: true, count: 1 });
  });
});

describe('client address', () => {
  it('does not let a client choose its rate-limit identity with a spoofed header', async () => {
    const rule = { name: 'spoof', limit: 1, windowSeconds: 60 };
    const app = createApp(ctx.deps);
    const { rateLimit } = await import('../../src/server/services/limits/rate-limit.ts');
    app.post('/api/spoof-check', rateLimit(rule), (c) => c.body(null, 204));
    const from = { incoming: { socket: { remoteAddress: '192.0.2.50' } } };
    const first = await app.request('/api/spoof-check', jsonRequest({}, { headers: { 'x-nf-client-connection-ip': '10.0.0.1' } }), from);
    const second = await app.request('/api/spoof-check', jsonRequest({}, { headers: { 'x-nf-client-connection-ip': '10.0.0.2', 'x-forwarded-for': '10.0.0.3' } }), from);
    expect(first.status).toBe(204);
    expect(second.status).toBe(429);
  });
});

describe('input the database cannot hold', () => {
  it('answers a NUL character in text with 400, not 500', async () => {
    const response = await ctx.app.request('/api/analytics/pageview', jsonRequest({ ...pageview, path: '/a\u0000b' }));
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe('Text must not contain NUL characters');
  });

  it('answers a timestamp in year 0 with 400, not 500', async () => {
    const response = await ctx.app.request('/api/analytics/pageview', jsonRequest({ ...pageview, timestamp: '0000-01-01T00:00:00Z' }));
    expect(response.status).toBe(400);
    expect((await response.json()).fields).toEqual({ timestamp: 'Timestamp is out of range' });
  });
});

describe('error log', () => {
  it('keeps the database message but never the query parameters', async () => {
    const logged: Record<string, unknown>[] = [];
    const log = { info() {}, warn() {}, error: (_message: string, extra?: Record<string, unknown>) => void logged.push(extra ?? {}) };
    const app = createApp({ ...ctx.deps, log });
    app.get('/api/explode-query', () => {
      throw new Error('Failed query: insert into "bookings" values ($1, $2)\nparams: Ada,ada@example.org', {
        cause: Object.assign(new Error('invalid byte sequence'), { code: '22021' }),
      });
    });
    expect((await app.request('/api/explode-query')).status).toBe(500);
    const entry = JSON.stringify(logged);
    expect(entry).toContain('invalid byte sequence');
    expect(entry).toContain('22021');
    expect(entry).not.toContain('ada@example.org');
  });
});
