import { useCallback, useEffect, useRef, useState } from 'react';
import { sendQueued } from './crew-api.ts';
import { onWorkerQueueChange, requestBackgroundSync } from './crew-offline.ts';
import { createCrewQueue, type CrewQueue, type FlushResult, type QueuedItem, type QueueState, type SendOutcome } from './crew-queue.ts';
import { openQueueStore, type CrewStore, type HeldLink } from './crew-queue-store.ts';

// The page's side of the crew queue (crew-queue.ts): the store on the phone's disk, the link each
// item goes with, and the flushes (on load, on `online`, after each new item, on Retry).

const ENDED_DAY_LINK = "That day's link has ended. Ask the office for a new link.";

/**
 * The link an item is sent with: the one the phone holds now when it is for the same worker's
 * same day (so an item made under a link staff replaced is not lost with the old link), else
 * its own (another day's, or another worker's on a shared phone).
 */
export function linkFor(item: Pick<QueuedItem, 'token' | 'day' | 'worker'>, held: HeldLink | null): string {
  if (!held) return item.token;
  if (item.token === held.token || !item.day) return held.token;
  return held.day !== null && held.day === item.day && held.worker === (item.worker ?? null) ? held.token : item.token;
}

export type NewItem = Omit<QueuedItem, 'id' | 'token' | 'day' | 'worker' | 'attempts' | 'createdAt'>;

export function useCrewQueue(held: HeldLink | null) {
  const heldRef = useRef(held);
  heldRef.current = held;
  const [queue, setQueue] = useState<CrewQueue | null>(null);
  const [store, setStore] = useState<CrewStore | null>(null);
  const [state, setState] = useState<QueueState>({ items: [], sending: false, lastError: null });
  const [linkEnded, setLinkEnded] = useState<FlushResult['linkEnded']>(null);

  useEffect(() => {
    let live = true;
    let stop = () => {};
    const send = async (item: QueuedItem): Promise<SendOutcome> => {
      const current = heldRef.current;
      const token = linkFor(item, current);
      const outcome = await sendQueued(item, token);
      // An older day's link that ended: only this item waits in vain; the day's link is fine.
      if (outcome.kind === 'link-ended' && token !== current?.token) return { kind: 'rejected', status: outcome.status, reason: ENDED_DAY_LINK };
      return outcome;
    };
    void openQueueStore().then(async (opened) => {
      if (!live) return;
      const created = createCrewQueue(opened, send);
      const unsubscribe = created.subscribe(setState);
      const unlisten = onWorkerQueueChange(() => void created.load());
      stop = () => {
        unsubscribe();
        unlisten();
      };
      await created.load();
      setStore(opened);
      setQueue(created);
    });
    return () => {
      live = false;
      stop();
    };
  }, []);

  // The service worker sends the queue with the link the phone holds now.
  useEffect(() => {
    void store?.saveLink(held);
  }, [store, held]);

  const flush = useCallback(async (): Promise<FlushResult | null> => {
    if (!queue) return null;
    const result = await queue.flush();
    if (result.linkEnded) setLinkEnded(result.linkEnded);
    else if (result.sent.length > 0) setLinkEnded(null);
    return result;
  }, [queue]);

  const enqueue = useCallback(
    async (entry: NewItem) => {
      const current = heldRef.current;
      if (!queue || !current) return;
      const made = current.day && current.worker ? { day: current.day, worker: current.worker } : {};
      await queue.enqueue({ ...entry, id: crypto.randomUUID(), token: current.token, ...made });
      requestBackgroundSync();
    },
    [queue],
  );

  return { queue, state, flush, enqueue, linkEnded };
}
