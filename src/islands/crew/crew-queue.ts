// What the crew did on the phone that the server has not confirmed yet (a bad signal on the
// pavement is normal): taps and photos wait here, on the phone, and are sent in the order they
// were made, on `online`, on the Retry button and on the next load. Each item carries its own
// key, sent as Idempotency-Key, so a send whose answer was lost and is sent again changes nothing
// twice (api.md "Crew day"). Photos are Blobs, kept in IndexedDB (crew-queue-store.ts).

/** Each is sent to `/api/crew/stops/{bookingId}/{action}` (photos to `…/photos`). */
export type CrewAction = 'on-the-way' | 'done' | 'undo-done' | 'photo';

export interface QueuedItem {
  /** Random and unique; the Idempotency-Key of every attempt. */
  id: string;
  /** The crew link the action was made with. */
  token: string;
  bookingId: number;
  action: CrewAction;
  /** When it was made (ms): the send order. */
  createdAt: number;
  photoType?: 'before' | 'during' | 'after';
  photo?: Blob;
  thumbnail?: Blob;
  takenAt?: string;
  position?: { lat: number; lng: number; accuracy: number } | null;
  attempts: number;
}

export interface QueueStore {
  all(): Promise<QueuedItem[]>;
  put(item: QueuedItem): Promise<void>;
  delete(id: string): Promise<void>;
}

/** What a send did: the server took it, it must wait (no signal, server busy), or it can never succeed. */
export type SendOutcome = { kind: 'sent'; body?: unknown } | { kind: 'retry'; reason: string } | { kind: 'rejected'; status: number; reason: string };

export type Sender = (item: QueuedItem) => Promise<SendOutcome>;

export interface QueueState {
  items: readonly QueuedItem[];
  /** True while a flush is under way. */
  sending: boolean;
  /** Why the last flush stopped, when it did (e.g. 'No signal'). */
  lastError: string | null;
}

export interface FlushResult {
  sent: QueuedItem[];
  rejected: { item: QueuedItem; status: number; reason: string }[];
  left: number;
}

export function createCrewQueue(store: QueueStore, send: Sender) {
  let state: QueueState = { items: [], sending: false, lastError: null };
  const listeners = new Set<(state: QueueState) => void>();
  let running: Promise<FlushResult> | null = null;

  const publish = (next: Partial<QueueState>) => {
    state = { ...state, ...next };
    for (const listener of listeners) listener(state);
  };
  const sorted = (items: QueuedItem[]) => [...items].sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));

  async function load(): Promise<void> {
    publish({ items: sorted(await store.all()) });
  }

  async function enqueue(item: Omit<QueuedItem, 'attempts' | 'createdAt'> & { createdAt?: number }): Promise<void> {
    const full: QueuedItem = { createdAt: Date.now(), ...item, attempts: 0 };
    await store.put(full);
    publish({ items: sorted([...state.items.filter((queued) => queued.id !== full.id), full]) });
  }

  /**
   * Sends what waits, oldest first, one at a time. Stops at the first item that must wait, so a
   * Done never overtakes the photos taken before it. An item the server refuses for good (the
   * stop is not on this worker's day, a link that expired) is dropped and reported. One flush at a
   * time: a second call while one runs gets the same result.
   */
  function flush(): Promise<FlushResult> {
    running ??= (async () => {
      publish({ sending: true, lastError: null });
      const result: FlushResult = { sent: [], rejected: [], left: 0 };
      try {
        for (const item of sorted(await store.all())) {
          const attempt = { ...item, attempts: item.attempts + 1 };
          let outcome: SendOutcome;
          try {
            outcome = await send(attempt);
          } catch (error) {
            outcome = { kind: 'retry', reason: error instanceof Error ? error.message : String(error) };
          }
          if (outcome.kind === 'retry') {
            await store.put(attempt);
            publish({ lastError: outcome.reason });
            break;
          }
          await store.delete(item.id);
          if (outcome.kind === 'sent') result.sent.push(item);
          else result.rejected.push({ item, status: outcome.status, reason: outcome.reason });
        }
      } finally {
        const items = sorted(await store.all());
        result.left = items.length;
        publish({ items, sending: false });
        running = null;
      }
      return result;
    })();
    return running;
  }

  return {
    load,
    enqueue,
    flush,
    getState: () => state,
    subscribe(listener: (state: QueueState) => void) {
      listeners.add(listener);
      listener(state);
      return () => listeners.delete(listener);
    },
  };
}

export type CrewQueue = ReturnType<typeof createCrewQueue>;

/** A store in memory: for tests, and for a browser that refuses IndexedDB (private mode). */
export function memoryStore(): QueueStore {
  const items = new Map<string, QueuedItem>();
  return {
    all: async () => [...items.values()],
    put: async (item) => void items.set(item.id, item),
    delete: async (id) => void items.delete(id),
  };
}

/** "2 photos waiting to upload", "1 photo and 1 update waiting to send", or null when nothing waits. */
export function waitingText(items: readonly QueuedItem[]): string | null {
  const photos = items.filter((item) => item.action === 'photo').length;
  const taps = items.length - photos;
  const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  if (photos && !taps) return `${plural(photos, 'photo')} waiting to upload`;
  if (taps && !photos) return `${plural(taps, 'update')} waiting to send`;
  if (photos && taps) return `${plural(photos, 'photo')} and ${plural(taps, 'update')} waiting to send`;
  return null;
}

/**
 * How a send's answer is read: 2xx sent; no answer, 408, 429 and 5xx wait and are retried;
 * any other 4xx can never succeed (404 a stop not on the day, 410 a link that ended, 400 a bad
 * photo) and is dropped with its reason.
 */
export function outcomeOf(status: number, reason: string): SendOutcome {
  if (status >= 200 && status < 300) return { kind: 'sent' };
  if (status === 408 || status === 429 || status >= 500) return { kind: 'retry', reason };
  return { kind: 'rejected', status, reason };
}
