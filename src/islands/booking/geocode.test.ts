import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addressAt, searchPlaces } from './geocode.ts';

const BUSY = { status: 503, body: { error: 'Address lookup is unavailable right now' } };

/** fetch answering each call with the next answer in the list (the last one from then on). */
function answers(...list: { status: number; body: unknown; retryAfter?: number }[]) {
  const fetchMock = vi.fn(async () => {
    const next = list[Math.min(fetchMock.mock.calls.length, list.length) - 1]!;
    const headers = next.retryAfter === undefined ? undefined : { 'Retry-After': String(next.retryAfter) };
    return new Response(JSON.stringify(next.body), { status: next.status, headers });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('map look-ups while the site shares the geocoder', () => {
  it('waits out a one-second busy answer once and shows the real address', async () => {
    const fetchMock = answers({ ...BUSY, retryAfter: 1 }, { status: 200, body: { address: 'Grey Street, Newcastle NE1 6EE', lat: 54.97, lng: -1.61 } });
    const address = addressAt(54.97, -1.61);
    await vi.advanceTimersByTimeAsync(1000);
    await expect(address).resolves.toBe('Grey Street, Newcastle NE1 6EE');
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('falls back to the coordinates at once while the geocoder is down (a long Retry-After)', async () => {
    const fetchMock = answers({ ...BUSY, retryAfter: 29 });
    await expect(addressAt(54.970001, -1.61)).resolves.toBe('Location 54.970001, -1.610000');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('asks again only once, then falls back', async () => {
    const fetchMock = answers({ ...BUSY, retryAfter: 1 });
    const address = addressAt(54.97, -1.61);
    await vi.advanceTimersByTimeAsync(1000);
    await expect(address).resolves.toBe('Location 54.970000, -1.610000');
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('retries a busy search the same way', async () => {
    answers({ ...BUSY, retryAfter: 1 }, { status: 200, body: [{ address: 'Briggate, Leeds LS1 6HD', lat: 53.8, lng: -1.54 }] });
    const places = searchPlaces('Briggate');
    await vi.advanceTimersByTimeAsync(1000);
    await expect(places).resolves.toEqual([{ address: 'Briggate, Leeds LS1 6HD', lat: 53.8, lng: -1.54 }]);
  });

  it('stops waiting when the person moves on', async () => {
    const fetchMock = answers({ ...BUSY, retryAfter: 1 });
    const controller = new AbortController();
    const address = addressAt(54.97, -1.61, controller.signal);
    const settled = expect(address).rejects.toBeDefined();
    await vi.advanceTimersByTimeAsync(0);
    controller.abort();
    await settled;
    await vi.advanceTimersByTimeAsync(2000);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
