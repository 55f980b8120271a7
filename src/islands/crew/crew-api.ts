import { ApiError, api } from '../shared/api.ts';
import { outcomeOf, type QueuedItem, type SendOutcome } from './crew-queue.ts';
import type { CrewDay } from '../../domain/crew.ts';

// The calls /crew makes (api.md "Crew day"). The crew link's token goes in the Authorization
// header, never in an address, so it is not left in logs or history.

export type { CrewStop, CrewStopStatus } from '../../domain/crew.ts';
/** What `GET /api/crew/day` answers. */
export type CrewDayData = CrewDay;

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

export function fetchCrewDay(token: string): Promise<CrewDayData> {
  return api<CrewDayData>('/api/crew/day', { headers: bearer(token), cache: 'no-store' });
}

/**
 * Sends one queued item with `token` (the link the phone holds now, when it is for the item's
 * day); a failed fetch (no signal) throws, and the queue keeps the item. A tap says when it was
 * made on the phone, so one that waited for signal keeps its time.
 */
export async function sendQueued(item: QueuedItem, token: string = item.token): Promise<SendOutcome> {
  const url = `/api/crew/stops/${item.bookingId}/${item.action === 'photo' ? 'photos' : item.action}`;
  let body: FormData | { tappedAt: string } | undefined;
  if (item.action !== 'photo') body = { tappedAt: new Date(item.createdAt).toISOString() };
  if (item.action === 'photo' && item.photo) {
    body = new FormData();
    body.set('photo', item.photo, `${item.photoType}.jpg`);
    if (item.thumbnail) body.set('thumbnail', item.thumbnail, `${item.photoType}-thumb.jpg`);
    body.set('photoType', item.photoType ?? 'before');
    body.set('takenAt', item.takenAt ?? new Date().toISOString());
    if (item.position) {
      body.set('lat', String(item.position.lat));
      body.set('lng', String(item.position.lng));
      body.set('accuracy', String(Math.round(item.position.accuracy)));
    }
  }
  try {
    const data = await api(url, { method: 'POST', body, headers: { ...bearer(token), 'Idempotency-Key': item.id } });
    return { kind: 'sent', body: data };
  } catch (error) {
    if (error instanceof ApiError) return outcomeOf(error.status, error.message);
    throw error;
  }
}
