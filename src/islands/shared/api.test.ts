import { afterEach, describe, expect, it, vi } from 'vitest';
import { createChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/pbkdf2';
import { api, ApiError } from './api.ts';
import { $checking } from './challenge.ts';


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

/**
 * The browser's worker, run in this process: the same script (challenge-worker.ts) answering
 * the same messages, so the challenge is really solved.
 */
const workerScope = { postMessage: (_data: unknown) => {}, onmessage: null as null | ((event: MessageEvent) => unknown) };
let checkingWhileSolving: boolean[] = [];

class InProcessWorker {
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: (() => void) | null = null;
  postMessage(challenge: Challenge) {
    checkingWhileSolving.push($checking.get());
    workerScope.postMessage = (data: unknown) => this.onmessage?.({ data } as MessageEvent);
    vi.stubGlobal('self', workerScope);
    void import('./challenge-worker.ts').then(() => workerScope.onmessage?.({ data: challenge } as MessageEvent));
  }
  terminate() {}
}

describe('api() past a site-wide ceiling', () => {
  it('solves a 428’s challenge in a worker, shows it is checking, and sends the same request again with X-Altcha', async () => {
    const challenge = await createChallenge({ algorithm: 'PBKDF2/SHA-256', cost: 10, counter: 300, deriveKey, hmacSignatureSecret: 'secret', hmacKeySignatureSecret: 'key' });
    const sent: { headers: Record<string, string>; body: unknown }[] = [];
    checkingWhileSolving = [];
    vi.stubGlobal('Worker', InProcessWorker);
    vi.stubGlobal('fetch', vi.fn(async (_url: string, init: RequestInit) => {
      sent.push({ headers: init.headers as Record<string, string>, body: init.body });
      return sent.length === 1
        ? new Response(JSON.stringify({ error: 'Busy', challenge }), { status: 428 })
        : new Response('{"ok": true}', { status: 201 });
    }));
    await expect(api('/api/contacts', { body: { message: 'Twenty patches, please' } })).resolves.toEqual({ ok: true });
    expect(sent).toHaveLength(2);
    expect(sent[1]!.body).toBe(sent[0]!.body);
    const payload = JSON.parse(atob(sent[1]!.headers['X-Altcha']!));
    expect(payload.challenge).toEqual(challenge);
    expect(payload.solution.counter).toBe(300);
    // "Checking…" while the worker solved it, and not after.
    expect(checkingWhileSolving).toEqual([true]);
    expect($checking.get()).toBe(false);
  });

  it('gives up with the server’s message after two solved challenges are refused', async () => {
    const challenge = await createChallenge({ algorithm: 'PBKDF2/SHA-256', cost: 10, counter: 3, deriveKey, hmacSignatureSecret: 'secret', hmacKeySignatureSecret: 'key' });
    vi.stubGlobal('Worker', InProcessWorker);
    const fetch = vi.fn(async () => new Response(JSON.stringify({ error: 'Busy', challenge }), { status: 428 }));
    vi.stubGlobal('fetch', fetch);
    const error = await api('/api/contacts', { body: {} }).catch((caught) => caught);
    expect(error).toMatchObject({ status: 428, message: 'Busy' });
    expect(fetch).toHaveBeenCalledTimes(3);
  });
});
