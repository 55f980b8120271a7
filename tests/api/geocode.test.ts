import { beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { geocodeCache } from '../../db/schema.ts';
import { createApp } from '../../src/server/api/app.ts';
import { GEOCODER_TIMEOUT_MS } from '../../src/server/providers/geocoder.ts';
import { createTestContext } from '../setup/test-app.ts';
import { startFakeHttpServer, unreachableUrl, type RecordedRequest } from '../fixtures/fake-http-server.ts';

// A stand-in for Nominatim speaking its JSON: reverse → {display_name, lat, lon},
// search → [{display_name, lat, lon}], "Unable to geocode" out at sea.
const nominatim = await startFakeHttpServer((request: RecordedRequest) => {
  const url = new URL(request.url, 'http://fake');
  if (url.pathname === '/reverse') {
    const lat = Number(url.searchParams.get('lat'));
    if (lat > 54.5) return { json: { error: 'Unable to geocode' } };
    return {
      json: {
        display_name: 'Piccadilly Gardens, Manchester, Greater Manchester, England, M1 1RG, United Kingdom',
        lat: url.searchParams.get('lat'),
        lon: url.searchParams.get('lon'),
      },
    };
  }
  if (url.pathname === '/search') {
    const places = Array.from({ length: 8 }, (_, index) => ({
      display_name: `${url.searchParams.get('q')} ${index + 1}, Leeds, West Yorkshire, England, LS1 ${index + 1}AB, United Kingdom`,
      lat: String(53.79 + index / 100),
      lon: String(-1.54 - index / 100),
    }));
    return { json: places };
  }
  return { status: 404, json: {} };
});

const USER_AGENT = 'CleanPatchTests/1.0 (tests@cleanpatch.example)';
// GEOCODER_MAX_PER_SECOND keeps its default: 1 call a second for the whole site.
const ctx = await createTestContext({ GEOCODER_URL: nominatim.url, GEOCODER_USER_AGENT: USER_AGENT });

// The site-wide limit and the pause after a failure are counted in time: each test starts an
// hour after the previous one, clear of both, and moves the clock itself where it matters.
const HOUR = 60 * 60 * 1000;
let clock = ctx.deps.now().getTime();
beforeEach(() => {
  clock += HOUR;
  ctx.setNow(new Date(clock));
});
const later = (seconds: number) => ctx.setNow(new Date(clock + seconds * 1000));

let clientNumber = 0;
const nextClient = () => ({ incoming: { socket: { remoteAddress: `192.0.2.${(clientNumber += 1)}` } } });
const get = (path: string, app = ctx.app, client = nextClient()) => app.request(path, {}, client);
const hitsTo = (path: string) => nominatim.requests.filter((request) => request.url.startsWith(path)).length;

describe('GET /api/geocode/reverse', () => {
  it('answers the address at a point, asking the geocoder with its User-Agent', async () => {
    const response = await get('/api/geocode/reverse?lat=53.4808&lng=-2.2426');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      address: 'Piccadilly Gardens, Manchester, Greater Manchester, England, M1 1RG, United Kingdom',
      lat: 53.4808,
      lng: -2.2426,
    });
    const request = nominatim.requests.at(-1)!;
    expect(request.headers['user-agent']).toBe(USER_AGENT);
    const asked = new URL(request.url, 'http://fake');
    expect(asked.pathname).toBe('/reverse');
    expect(asked.searchParams.get('format')).toBe('jsonv2');
    expect(asked.searchParams.get('lat')).toBe('53.4808');
    expect(asked.searchParams.get('lon')).toBe('-2.2426');
  });

  it('answers a repeated point from the cache without asking the geocoder again', async () => {
    const before = hitsTo('/reverse');
    const first = await get('/api/geocode/reverse?lat=53.4823&lng=-2.2389');
    const second = await get('/api/geocode/reverse?lat=53.48230&lng=-2.23890');
    // Within the fifth decimal: the same cache entry.
    const third = await get('/api/geocode/reverse?lat=53.482301&lng=-2.238899');
    expect([first.status, second.status, third.status]).toEqual([200, 200, 200]);
    expect(hitsTo('/reverse')).toBe(before + 1);
    const [row] = await ctx.deps.db.select().from(geocodeCache).where(eq(geocodeCache.key, 'reverse:53.48230,-2.23890'));
    expect(row?.result).toMatchObject({ address: expect.stringContaining('Manchester') });
    // The answer keeps the point the person chose.
    expect(await third.json()).toMatchObject({ lat: 53.482301, lng: -2.238899 });
  });

  it('answers 404 where the geocoder knows no address', async () => {
    const response = await get('/api/geocode/reverse?lat=55.5&lng=-1.0');
    expect(response.status).toBe(404);
    expect((await response.json()).error).toBe('No address found for this location');
  });

  it.each([
    ['lat=&lng=-2.2', 'lat'],
    ['lng=-2.2', 'lat'],
    ['lat=91&lng=0', 'lat'],
    ['lat=-90.5&lng=0', 'lat'],
    ['lat=53&lng=181', 'lng'],
    ['lat=abc&lng=0', 'lat'],
    ['lat=53&lng=1e3', 'lng'],
    ['lat=53&lng=Infinity', 'lng'],
  ])('answers ?%s with 400 on %s', async (query, field) => {
    const response = await get(`/api/geocode/reverse?${query}`);
    expect(response.status).toBe(400);
    expect((await response.json()).fields).toHaveProperty(field);
  });
});

describe('GET /api/geocode/search', () => {
  it('answers at most five places in Great Britain', async () => {
    const response = await get('/api/geocode/search?q=Briggate');
    expect(response.status).toBe(200);
    const places = await response.json();
    expect(places).toHaveLength(5);
    expect(places[0]).toEqual({
      address: 'Briggate 1, Leeds, West Yorkshire, England, LS1 1AB, United Kingdom',
      lat: 53.79,
      lng: -1.54,
    });
    const asked = new URL(nominatim.requests.at(-1)!.url, 'http://fake');
    expect(asked.pathname).toBe('/search');
    expect(asked.searchParams.get('countrycodes')).toBe('gb');
    expect(asked.searchParams.get('limit')).toBe('5');
    expect(nominatim.requests.at(-1)!.headers['user-agent']).toBe(USER_AGENT);
  });

  it('caches searches by their lower-cased text', async () => {
    const before = hitsTo('/search');
    await get('/api/geocode/search?q=Albert%20Dock');
    await get('/api/geocode/search?q=albert%20dock');
    await get('/api/geocode/search?q=%20ALBERT%20%20DOCK%20');
    expect(hitsTo('/search')).toBe(before + 1);
    const [row] = await ctx.deps.db.select().from(geocodeCache).where(eq(geocodeCache.key, 'search:albert dock'));
    expect(row).toBeDefined();
  });

  it.each([[''], ['a'], ['%20%20b%20'], ['x'.repeat(201)]])('answers q=%s with 400', async (q) => {
    const response = await get(`/api/geocode/search?q=${q}`);
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe('Search text must be 2 to 200 characters');
  });

  it('answers a missing q with 400', async () => {
    expect((await get('/api/geocode/search')).status).toBe(400);
  });
});

describe('when the geocoder cannot answer', () => {
  it('answers 503 quickly when the geocoder is down, and still answers cached points', async () => {
    expect((await get('/api/geocode/reverse?lat=53.4101&lng=-2.9781')).status).toBe(200);
    later(1);
    const down = createApp({ ...ctx.deps, env: { ...ctx.deps.env, GEOCODER_URL: await unreachableUrl() } });
    const started = performance.now();
    const response = await get('/api/geocode/reverse?lat=53.40001&lng=-2.99001', down);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ error: 'Address lookup is unavailable right now' });
    expect(performance.now() - started).toBeLessThan(2_000);
    // Past the pause that failure started, so this one reaches the down geocoder too.
    later(31);
    expect((await get('/api/geocode/search?q=Fargate', down)).status).toBe(503);
    // Cached above: no need for the geocoder.
    expect((await get('/api/geocode/reverse?lat=53.4101&lng=-2.9781', down)).status).toBe(200);
  });

  it('answers 503 when lookups are switched off', async () => {
    const off = createApp({ ...ctx.deps, env: { ...ctx.deps.env, GEOCODER_URL: 'off' } });
    const before = nominatim.requests.length;
    const response = await get('/api/geocode/reverse?lat=53.1&lng=-2.1', off);
    expect(response.status).toBe(503);
    expect((await get('/api/geocode/search?q=Leeds', off)).status).toBe(503);
    expect(nominatim.requests.length).toBe(before);
  });

  it('answers 503 when the geocoder answers an error status', async () => {
    const broken = await startFakeHttpServer(() => ({ status: 500, json: { error: 'boom' } }));
    const app = createApp({ ...ctx.deps, env: { ...ctx.deps.env, GEOCODER_URL: broken.url } });
    expect((await get('/api/geocode/search?q=Quayside', app)).status).toBe(503);
    // Failures are not cached.
    expect(await ctx.deps.db.select().from(geocodeCache).where(eq(geocodeCache.key, 'search:quayside'))).toHaveLength(0);
  });
});

describe('rate limit', () => {
  it('allows 30 lookups a minute per client, then 429 with Retry-After', async () => {
    const client = { incoming: { socket: { remoteAddress: '203.0.113.9' } } };
    for (let index = 0; index < 30; index += 1) {
      expect((await get('/api/geocode/reverse?lat=53.4823&lng=-2.2389', ctx.app, client)).status).toBe(200);
    }
    const limited = await get('/api/geocode/reverse?lat=53.4823&lng=-2.2389', ctx.app, client);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeTruthy();
  });
});

describe('the whole site asks the geocoder at most GEOCODER_MAX_PER_SECOND times a second', () => {
  it('answers a second lookup in the same second 503 at once, from any instance, without asking', async () => {
    // Two function instances share nothing but the database.
    const otherInstance = createApp({ ...ctx.deps });
    const before = hitsTo('/reverse');
    expect((await get('/api/geocode/reverse?lat=53.3811&lng=-1.4701')).status).toBe(200);

    const refused = await get('/api/geocode/reverse?lat=53.3822&lng=-1.4722', otherInstance);
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ error: 'Address lookup is unavailable right now' });
    expect(refused.headers.get('retry-after')).toBe('1');
    expect((await get('/api/geocode/search?q=Division%20Street', otherInstance)).status).toBe(503);
    expect(hitsTo('/reverse')).toBe(before + 1);

    // Cache hits are not calls to the geocoder: they never count.
    expect((await get('/api/geocode/reverse?lat=53.3811&lng=-1.4701', otherInstance)).status).toBe(200);

    later(1);
    const next = await get('/api/geocode/reverse?lat=53.3822&lng=-1.4722', otherInstance);
    expect(next.status).toBe(200);
    expect(hitsTo('/reverse')).toBe(before + 2);
  });

  it('allows more calls a second when GEOCODER_MAX_PER_SECOND is raised', async () => {
    const paid = createApp({ ...ctx.deps, env: { ...ctx.deps.env, GEOCODER_MAX_PER_SECOND: 3 } });
    const before = hitsTo('/search');
    const statuses = [];
    for (const q of ['Boar Lane', 'Call Lane', 'Kirkgate', 'Vicar Lane']) {
      statuses.push((await get(`/api/geocode/search?q=${encodeURIComponent(q)}`, paid)).status);
    }
    expect(statuses).toEqual([200, 200, 200, 503]);
    expect(hitsTo('/search')).toBe(before + 3);
  });
});

describe('after the geocoder fails, nobody asks it for 30 seconds', () => {
  it('lets one lookup wait out a hanging geocoder, answers the next ones 503 at once, then asks again', async () => {
    let isHanging = true;
    const hanging = await startFakeHttpServer((request) =>
      isHanging
        ? { hang: true }
        : { json: { display_name: 'Fishergate, Preston, Lancashire, England, PR1 2NJ, United Kingdom', lat: '53.757', lon: '-2.703' } },
    );
    const env = { ...ctx.deps.env, GEOCODER_URL: hanging.url };
    const instance = createApp({ ...ctx.deps, env });
    const otherInstance = createApp({ ...ctx.deps, env });

    const started = performance.now();
    const first = await get('/api/geocode/reverse?lat=53.7571&lng=-2.7031', instance);
    expect(first.status).toBe(503);
    expect(performance.now() - started).toBeGreaterThanOrEqual(GEOCODER_TIMEOUT_MS * 0.9);
    expect(hanging.requests).toHaveLength(1);

    // Past the one-a-second limit, so only the pause can refuse these; another instance sees it too.
    later(1);
    const paused = await get('/api/geocode/reverse?lat=53.7582&lng=-2.7042', otherInstance);
    expect(paused.status).toBe(503);
    expect(await paused.json()).toMatchObject({ error: 'Address lookup is unavailable right now' });
    expect(paused.headers.get('retry-after')).toBe('29');
    // Answered without asking the hanging geocoder (which would have taken the whole timeout).
    expect(hanging.requests).toHaveLength(1);
    later(29);
    expect((await get('/api/geocode/search?q=Fishergate', instance)).status).toBe(503);
    expect(hanging.requests).toHaveLength(1);

    isHanging = false;
    later(31);
    const again = await get('/api/geocode/reverse?lat=53.7582&lng=-2.7042', otherInstance);
    expect(again.status).toBe(200);
    expect((await again.json()).address).toContain('Preston');
    expect(hanging.requests).toHaveLength(2);
  });

  it('pauses after an error status too', async () => {
    const broken = await startFakeHttpServer(() => ({ status: 429, json: { error: 'Too many requests' } }));
    const app = createApp({ ...ctx.deps, env: { ...ctx.deps.env, GEOCODER_URL: broken.url } });
    expect((await get('/api/geocode/search?q=Deansgate', app)).status).toBe(503);
    later(10);
    expect((await get('/api/geocode/search?q=King%20Street', app)).status).toBe(503);
    expect(broken.requests).toHaveLength(1);
  });
});
