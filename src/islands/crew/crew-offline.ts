import type { CrewDayData } from './crew-api.ts';
import { CREW_DAY_KEY } from '../shared/storage-keys.ts';

// /crew with no signal: the service worker that keeps the page's shell (public/crew-sw.js, scope
// /crew only; no other page registers one), Background Sync for the queue, and the last copy of
// the day. The copy is tied to the link it was loaded with: another link (another worker, or the
// same worker's new link) never sees it, and a link that ended takes it away.

export const CREW_WORKER_URL = '/crew-sw.js';
export const CREW_WORKER_SCOPE = '/crew';
const SYNC_TAG = 'crew-queue';

/** The day as the phone last loaded it, with the link it came with and when. */
interface DayCopy {
  token: string;
  /** When it was loaded (ISO): "Last updated 07:12". */
  savedAt: string;
  day: CrewDayData;
}

/**
 * Registers the worker, then names to it every script, style and font this visit loaded, so
 * the next visit with no signal finds them all (those the shell's HTML does not name included).
 */
export function registerCrewWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const nameLoaded = (worker: ServiceWorker | null | undefined) => {
    const urls = performance.getEntriesByType('resource').map((entry) => entry.name);
    worker?.postMessage({ type: 'cache-assets', urls });
  };
  void navigator.serviceWorker
    .register(CREW_WORKER_URL, { scope: CREW_WORKER_SCOPE })
    .then(() => navigator.serviceWorker.ready)
    .then((registration) => {
      nameLoaded(registration.active);
      // Scripts that load late (on idle, the map) are named again once the page has settled.
      const again = () => setTimeout(() => nameLoaded(registration.active), 2000);
      if (document.readyState === 'complete') again();
      else window.addEventListener('load', again, { once: true });
    })
    .catch(() => undefined);
}

interface SyncRegistration extends ServiceWorkerRegistration {
  sync?: { register(tag: string): Promise<void> };
}

/** Asks the browser to send the queue when the signal returns, even with the page closed. */
export function requestBackgroundSync(): void {
  if (!('serviceWorker' in navigator)) return;
  void navigator.serviceWorker.ready.then((registration: SyncRegistration) => registration.sync?.register(SYNC_TAG)).catch(() => undefined);
}

/** Calls `listener` when the service worker changed the queue (it sent items in the background). */
export function onWorkerQueueChange(listener: () => void): () => void {
  if (!('serviceWorker' in navigator)) return () => {};
  const handle = (event: MessageEvent) => {
    if ((event.data as { type?: string } | null)?.type === 'crew-queue-changed') listener();
  };
  navigator.serviceWorker.addEventListener('message', handle);
  return () => navigator.serviceWorker.removeEventListener('message', handle);
}

/** The last copy of the day loaded with `token`, or null (none, or another link's). */
export function readDayCopy(token: string): DayCopy | null {
  try {
    const copy = JSON.parse(localStorage.getItem(CREW_DAY_KEY) ?? 'null') as DayCopy | null;
    return copy && copy.token === token && copy.day?.date ? copy : null;
  } catch {
    return null;
  }
}

export function saveDayCopy(token: string, day: CrewDayData, now: Date): DayCopy {
  const copy = { token, savedAt: now.toISOString(), day };
  localStorage.setItem(CREW_DAY_KEY, JSON.stringify(copy));
  return copy;
}

/** The day of whatever copy the phone holds, whichever link it came with (to forget an ended day). */
export function storedDayDate(): string | null {
  try {
    return (JSON.parse(localStorage.getItem(CREW_DAY_KEY) ?? 'null') as DayCopy | null)?.day?.date ?? null;
  } catch {
    return null;
  }
}

const LONDON_TIME = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit' });

/** '07:12' (London), as the phone shows times of the day. */
export function londonTime(iso: string): string {
  return LONDON_TIME.format(new Date(iso));
}
