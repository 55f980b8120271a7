import { describe, expect, it } from 'vitest';
import { createCrewQueue, memoryStore, outcomeOf, waitingText, type QueuedItem, type SendOutcome } from './crew-queue.ts';

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

  it('drops what the server refuses for good and reports it, then carries on', async () => {
    const server = fakeServer({ kind: 'rejected', status: 404, reason: 'This stop is not on your day.' });
    const queue = createCrewQueue(memoryStore(), server.send);
    await queue.enqueue(item('x', 'on-the-way', 1));
    await queue.enqueue(item('y', 'done', 2));
    const result = await queue.flush();
    expect(result.rejected).toEqual([expect.objectContaining({ status: 404, reason: 'This stop is not on your day.' })]);
    expect(result.sent.map((sent) => sent.id)).toEqual(['y']);
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
    [400, 'rejected'],
    [404, 'rejected'],
    [410, 'rejected'],
  ] as const)('%i is %s', (status, kind) => {
    expect(outcomeOf(status, 'reason').kind).toBe(kind);
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
