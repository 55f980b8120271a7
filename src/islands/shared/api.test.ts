import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError } from './api.ts';

afterEach(() => vi.unstubAllGlobals());

function answer(status: number, body: string, statusText = '') {
  vi.stubGlobal('fetch', vi.fn(async () => new Response(status === 204 ? null : body, { status, statusText })));
}

describe('api()', () => {
  it('returns parsed JSON on success', async () => {
    answer(200, '{"id": 7}');
    await expect(api('/api/x')).resolves.toEqual({ id: 7 });
  });

  it('uses the server’s error message and field messages', async () => {
    answer(400, JSON.stringify({ error: 'Minimum 5 patches required', fields: { quantity: 'Minimum 5 patches required' } }));
    const error = await api('/api/bookings', { body: {} }).catch((caught) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: 'Minimum 5 patches required', status: 400, fields: { quantity: 'Minimum 5 patches required' } });
  });

  it('falls back to "status: text" for answers that are not JSON', async () => {
    answer(502, 'Bad gateway from proxy');
    await expect(api('/api/x')).rejects.toThrow('502: Bad gateway from proxy');
  });

  it('returns nothing for 204', async () => {
    answer(204, '');
    await expect(api('/api/analytics/pageview', { body: { path: '/' } })).resolves.toBeUndefined();
  });
});
