import { CREW_MESSAGES } from '../../domain/crew.ts';

// What the crew did on the phone that the server has not confirmed yet (a bad signal on the
// pavement is normal): taps and photos wait here, on the phone, and are sent in the order they
// were made, on `online`, on the Retry button, on the next load and by the service worker's
// Background Sync (public/crew-sw.js). Each item carries its own key, sent as Idempotency-Key, so
// a send whose answer was lost and is sent again changes nothing twice (api.md "Crew day").
// Photos are Blobs, kept in IndexedDB (crew-queue-store.ts).
//
// The queue belongs to the phone and the worker's day, not to one link: an item made under a link
// staff have since replaced goes with the link the phone holds now (the sender picks it), and an
// item leaves the phone only once the server has it or the person on the phone discards it. A
// link that ended keeps everything waiting; a refusal for good marks the item with its reason.

/** Each is sent to `/api/crew/stops/{bookingId}/{action}` (photos to `…/photos`). */
export type CrewAction = 'on-the-way' | 'done' | 'undo-done' | 'photo';

export interface QueuedItem {
  /** Random and unique; the Idempotency-Key of every attempt. */
  id: string;
  /** The crew link the action was made with. */
  token: string;
  /** The London day of that link ('YYYY-MM-DD') and its worker: a later link of theirs for the same day may send it. */
  day?: string;
  worker?: string;
  /** The stop's number on the day, so the item can be named once the day is gone ("Stop 2"). */
  stopOrder?: number;
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
  /** Why the server refused it for good; it then waits for the person to discard or retry it. */
  problem?: { status: number; reason: string };
}

export interface QueueStore {
  all(): Promise<QueuedItem[]>;
  put(item: QueuedItem): Promise<void>;
  delete(id: string): Promise<void>;
}

/**
 * What a send did: the server took it; it must wait (no signal, server busy); the link it went
 * with has ended (everything waits for a new link); or the server refuses this item for good.
 */
export type SendOutcome =
  | { kind: 'sent'; body?: unknown }
  | { kind: 'retry'; reason: string }
  | { kind: 'link-ended'; status: number; reason: string }
  | { kind: 'rejected'; status: number; reason: string };

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
  /** The link the phone holds answered that it ended: nothing more was sent. */
  linkEnded: { status: number; reason: string } | null;
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
   * Done never overtakes the photos taken before it, and at a link that ended. An item the server
   * refuses for good (a stop no longer on this worker's day, a bad photo) stays on the phone with
   * its reason and is not sent again until the person retries it. One flush at a time: a second
   * call while one runs gets the same result.
   */
  function flush(): Promise<FlushResult> {
    running ??= (async () => {
      publish({ sending: true, lastError: null });
      const result: FlushResult = { sent: [], rejected: [], linkEnded: null, left: 0 };
      try {
        for (const item of sorted(await store.all())) {
          if (item.problem) continue;
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
          if (outcome.kind === 'link-ended') {
            result.linkEnded = { status: outcome.status, reason: outcome.reason };
            publish({ lastError: outcome.reason });
            break;
          }
          if (outcome.kind === 'sent') {
            await store.delete(item.id);
            result.sent.push(item);
          } else {
            await store.put({ ...attempt, problem: { status: outcome.status, reason: outcome.reason } });
            result.rejected.push({ item, status: outcome.status, reason: outcome.reason });
          }
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

  /** The person on the phone chose to let it go: the only way an unsent item leaves the phone. */
  async function discard(id: string): Promise<void> {
    await store.delete(id);
    publish({ items: sorted(await store.all()) });
  }

  /** A refused item is tried again on the next flush. */
  async function retry(id: string): Promise<void> {
    const item = (await store.all()).find((queued) => queued.id === id);
    if (item) await store.put({ ...item, problem: undefined });
    publish({ items: sorted(await store.all()) });
  }

  return {
    load,
    enqueue,
    flush,
    discard,
    retry,
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
/**
 * How long the page waits before trying the queue again after `failures` flushes in a row that
 * stopped without sending (a phone that says it is online while nothing flows: weak 4G, a captive
 * Wi-Fi, never another `online` event): 5 s, then twice as long each time, at most 2 minutes.
 */
export const QUEUE_RETRY_FIRST_MS = 5_000;
export const QUEUE_RETRY_MAX_MS = 120_000;
export function queueRetryDelayMs(failures: number): number {
  return Math.min(QUEUE_RETRY_MAX_MS, QUEUE_RETRY_FIRST_MS * 2 ** Math.max(0, failures));
}

export function memoryStore(): QueueStore {
  const items = new Map<string, QueuedItem>();
  return {
    all: async () => [...items.values()],
    put: async (item) => void items.set(item.id, item),
    delete: async (id) => void items.delete(id),
  };
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** "2 photos waiting to upload", "1 photo and 1 update waiting to send", or null when nothing waits. */
export function waitingText(items: readonly QueuedItem[]): string | null {
  const photos = items.filter((item) => item.action === 'photo').length;
  const taps = items.length - photos;
  if (photos && !taps) return `${plural(photos, 'photo')} waiting to upload`;
  if (taps && !photos) return `${plural(taps, 'update')} waiting to send`;
  if (photos && taps) return `${plural(photos, 'photo')} and ${plural(taps, 'update')} waiting to send`;
  return null;
}

/** A stop's photo button while some wait: "1 photo waiting". */
export function photosWaitingText(count: number): string {
  return `${plural(count, 'photo')} waiting`;
}

/** What a link answer says about the link itself, not the stop (domain/crew.ts CREW_MESSAGES). */
const LINK_MESSAGES: readonly string[] = [CREW_MESSAGES.unknownLink, CREW_MESSAGES.expiredLink];

/**
 * How a send's answer is read: 2xx sent; no answer, 408, 429, 5xx and 403 (the link's day has not
 * begun) wait and are retried; 410, or 404 for the link itself, mean the link ended and everything
 * waits for a new one; any other 4xx (404 a stop not on the day, 409, 400 a bad photo) is refused
 * for this item, which stays on the phone with its reason.
 */
export function outcomeOf(status: number, reason: string): SendOutcome {
  if (status >= 200 && status < 300) return { kind: 'sent' };
  if (status === 403 || status === 408 || status === 429 || status >= 500) return { kind: 'retry', reason };
  if (status === 410 || (status === 404 && LINK_MESSAGES.includes(reason))) return { kind: 'link-ended', status, reason };
  return { kind: 'rejected', status, reason };
}
