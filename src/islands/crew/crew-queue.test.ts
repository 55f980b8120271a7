import { describe, expect, it } from 'vitest';
import { createCrewQueue, memoryStore, outcomeOf, queueRetryDelayMs, waitingText, type QueuedItem, type SendOutcome } from './crew-queue.ts';
import { linkFor } from './use-crew-queue.ts';

const item = (id: string, action: QueuedItem['action'], createdAt: number) => ({ id, token: 't', bookingId: 1, action, createdAt });

/** A server the test controls: answers each send with the next outcome, recording what arrived. */
function fakeServer(...answers: SendOutcome[]) {
  const received: QueuedItem[] = [];
  return {
    received,
    send: async (sent: QueuedItem) => {
      received.push(sent);
      const answer = answers.shift() ?? { kind: 'sent' };
      if (answer.kind === 'retry' && answer.reason === 'throw') throw new TypeError('Failed to fetch');
      return answer;
    },
  };
}

describe('crew queue', () => {
  it('keeps a photo that could not be sent, shows it waiting, and sends it once on the next flush', async () => {
    const store = memoryStore();
    const server = fakeServer({ kind: 'retry', reason: 'throw' });
    const queue = createCrewQueue(store, server.send);
    await queue.enqueue(item('p1', 'photo', 1));
    const first = await queue.flush();
    expect(first).toMatchObject({ sent: [], left: 1 });
    expect(queue.getState().lastError).toBe('Failed to fetch');
    expect(waitingText(queue.getState().items)).toBe('1 photo waiting to upload');

    const second = await queue.flush();
    expect(second.sent.map((sent) => sent.id)).toEqual(['p1']);
    expect(await store.all()).toEqual([]);
    // Both attempts carried the same key; the second is the photo's last.
    expect(server.received.map((sent) => [sent.id, sent.attempts])).toEqual([
      ['p1', 1],
      ['p1', 2],
    ]);
    await queue.flush();
    expect(server.received).toHaveLength(2);
  });

  it('sends in the order things were done and never lets Done overtake a waiting photo', async () => {
    const server = fakeServer({ kind: 'sent' }, { kind: 'retry', reason: 'No signal' });
    const queue = createCrewQueue(memoryStore(), server.send);
    await queue.enqueue(item('done', 'done', 3));
    await queue.enqueue(item('way', 'on-the-way', 1));
    await queue.enqueue(item('before', 'photo', 2));
    const result = await queue.flush();
    expect(server.received.map((sent) => sent.id)).toEqual(['way', 'before']);
    expect(result.left).toBe(2);
    expect(waitingText(queue.getState().items)).toBe('1 photo and 1 update waiting to send');
  });

  it('runs one flush at a time: a second call while one runs sends nothing again', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const received: string[] = [];
    const queue = createCrewQueue(memoryStore(), async (sent) => {
      received.push(sent.id);
      await gate;
      return { kind: 'sent' };
    });
    await queue.enqueue(item('p1', 'photo', 1));
    const [a, b] = [queue.flush(), queue.flush()];
    release();
    expect(await a).toBe(await b);
    expect(received).toEqual(['p1']);
  });

  it('keeps what the server refuses for good, with its reason, until the person discards it; the rest goes on', async () => {
    const server = fakeServer({ kind: 'rejected', status: 409, reason: 'This stop is not scheduled for installation on your day. Ask the office.' });
    const queue = createCrewQueue(memoryStore(), server.send);
    await queue.enqueue(item('x', 'on-the-way', 1));
    await queue.enqueue(item('y', 'done', 2));
    const result = await queue.flush();
    expect(result.rejected).toEqual([expect.objectContaining({ status: 409 })]);
    expect(result.sent.map((sent) => sent.id)).toEqual(['y']);
    expect(queue.getState().items).toEqual([expect.objectContaining({ id: 'x', problem: { status: 409, reason: expect.stringContaining('not scheduled') } })]);
    // Not sent again by itself; tried again when the person asks.
    await queue.flush();
    expect(server.received.map((sent) => sent.id)).toEqual(['x', 'y']);
    await queue.retry('x');
    await queue.flush();
    expect(server.received.map((sent) => sent.id)).toEqual(['x', 'y', 'x']);
    expect(queue.getState().items).toEqual([]);
  });

  it('keeps everything when the link has ended, and lets the person discard an item', async () => {
    const server = fakeServer({ kind: 'link-ended', status: 410, reason: 'This crew link has expired or was withdrawn. Ask the office for a new one.' });
    const queue = createCrewQueue(memoryStore(), server.send);
    await queue.enqueue(item('photo', 'photo', 1));
    await queue.enqueue(item('way', 'on-the-way', 2));
    const result = await queue.flush();
    expect(result.linkEnded).toMatchObject({ status: 410 });
    expect(server.received.map((sent) => sent.id)).toEqual(['photo']);
    expect(queue.getState().items.map((queued) => queued.id)).toEqual(['photo', 'way']);
    await queue.discard('way');
    expect(queue.getState().items.map((queued) => queued.id)).toEqual(['photo']);
    // With a working link the photo goes, once.
    await queue.flush();
    expect(server.received.map((sent) => sent.id)).toEqual(['photo', 'photo']);
    expect(queue.getState().items).toEqual([]);
  });

  it('loads what an earlier visit left on the phone', async () => {
    const store = memoryStore();
    await store.put({ ...item('left', 'photo', 1), attempts: 3 });
    const queue = createCrewQueue(store, fakeServer().send);
    await queue.load();
    expect(waitingText(queue.getState().items)).toBe('1 photo waiting to upload');
  });
});

describe('outcomeOf', () => {
  it.each([
    [200, 'sent'],
    [201, 'sent'],
    [408, 'retry'],
    [429, 'retry'],
    [503, 'retry'],
    [403, 'retry'],
    [400, 'rejected'],
    [404, 'rejected'],
    [409, 'rejected'],
    [410, 'link-ended'],
  ] as const)('%i is %s', (status, kind) => {
    expect(outcomeOf(status, 'reason').kind).toBe(kind);
  });

  it('reads a 404 that names the link as the link ending, not the stop', () => {
    expect(outcomeOf(404, 'This crew link is not valid. Ask the office for a new one.').kind).toBe('link-ended');
    expect(outcomeOf(404, 'This stop is not on your day.').kind).toBe('rejected');
  });
});

describe('waitingText', () => {
  it.each([
    [[], null],
    [[item('a', 'photo', 1), item('b', 'photo', 2)], '2 photos waiting to upload'],
    [[item('a', 'done', 1)], '1 update waiting to send'],
  ])('%#', (items, text) => {
    expect(waitingText(items.map((entry) => ({ ...entry, attempts: 0 })))).toBe(text);
  });
});

describe('linkFor', () => {
  const held = { token: 'new', day: '2026-11-23', worker: 'Sam Carter' };
  it.each([
    ['an item made under a replaced link of the same day goes with the new link', { token: 'old', day: '2026-11-23', worker: 'Sam Carter' }, 'new'],
    ["an item from another day keeps its own link (it must not land on today's day)", { token: 'old', day: '2026-11-22', worker: 'Sam Carter' }, 'old'],
    ["another worker's item on a shared phone keeps its own link", { token: 'old', day: '2026-11-23', worker: 'Lee Ward' }, 'old'],
    ['an item from before items named their day goes with the link held now', { token: 'old' }, 'new'],
  ])('%s', (_case, queued, expected) => {
    expect(linkFor(queued, held)).toBe(expected);
  });

  it("keeps the item's own link until the held link's day is known", () => {
    expect(linkFor({ token: 'old', day: '2026-11-23', worker: 'Sam Carter' }, { token: 'new', day: null, worker: null })).toBe('old');
  });
});

describe('queueRetryDelayMs', () => {
  it('tries again after 5 s, then twice as long each time, never more than 2 minutes apart', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 20].map(queueRetryDelayMs)).toEqual([5_000, 10_000, 20_000, 40_000, 80_000, 120_000, 120_000, 120_000]);
  });
});
