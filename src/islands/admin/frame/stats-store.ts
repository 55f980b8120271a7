import { atom } from 'nanostores';

/**
 * Bumped after every admin change the server accepted (a status, a step, an archive, a restore,
 * the bulk archive of test bookings...). The stat cards listen and fetch their figures again, so
 * no tab needs to know which of its changes moves which figure.
 */
export const $statsChanged = atom(0);

export function markStatsStale(): void {
  $statsChanged.set($statsChanged.get() + 1);
}

/** Whether a call with this method and body changes something on the server. */
export function isChange(method: string | undefined, body: unknown): boolean {
  return (method ?? (body === undefined ? 'GET' : 'POST')).toUpperCase() !== 'GET';
}
