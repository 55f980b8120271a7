import { sendEvent } from '../../client/analytics.ts';
import { api } from '../shared/api.ts';

// The calls /track-project makes (public-site.md §7; api.md "Public calls").

/** The spec's tracked booking (public-site.md §3). Money in pounds, step dates ISO instants. */
export interface TrackedBooking {
  id: number;
  firstName: string;
  lastName: string;
  quantity: number;
  totalPrice: number;
  preferredDate: string;
  workType: 'day' | 'night';
  status: string;
  currentStep: number;
  consultationDate: string | null;
  stencilApprovedDate: string | null;
  installationDate: string | null;
  completionDate: string | null;
  /** The crew's status on the latest day it worked here, with its time (api.md "Crew day"). */
  crew?: { status: 'planned' | 'on_the_way' | 'started' | 'done'; at: string | null } | null;
}

/** The spec's Photo (public-site.md §3). */
export interface Photo {
  id: number;
  fileName: string;
  originalName: string;
  description: string | null;
  photoType: 'before' | 'during' | 'after' | 'reference';
  step: number;
  fileSize: number;
  createdAt: string;
  /** Only in a signed-in staff member's answer: a photo staff hid, which the customer's list leaves out. */
  hiddenFromCustomer?: true;
}

export const PHOTO_TYPE_LABEL: Record<Photo['photoType'], string> = {
  before: 'Before',
  during: 'During',
  after: 'After',
  reference: 'Reference',
};

export function photoAlt(photo: Photo): string {
  return photo.description || `${PHOTO_TYPE_LABEL[photo.photoType]} photo: ${photo.originalName}`;
}

/** By the form: the Booking ID is sent as an integer (public-site.md §5). By the e-mail's link: its token. */
export type TrackRequest = { email: string; bookingId: number } | { token: string };

export const TRACKING_NOT_FOUND = 'Booking not found. Please check your email and booking ID are correct.';
/** A link the server does not know (expired, used up, cut short): the person typed nothing, so say so. */
export const TRACKING_LINK_EXPIRED =
  'This tracking link has expired. Enter the e-mail address you booked with and your booking ID below to see your project.';

export function trackProject(request: TrackRequest): Promise<TrackedBooking> {
  return api<TrackedBooking>('/api/track-project', { body: request });
}

/** Readable only after a successful tracking call in this browser (a short-lived grant cookie). */
export function fetchPhotos(bookingId: number): Promise<Photo[]> {
  return api<Photo[]>(`/api/bookings/${bookingId}/photos`, { cache: 'no-store' });
}

export const photoUrl = (photo: Pick<Photo, 'fileName'>) => `/uploads/${encodeURIComponent(photo.fileName)}`;
export const photoDownloadUrl = (photo: Pick<Photo, 'fileName'>) => `${photoUrl(photo)}?download=1`;

/** The admin's "user events" count: fire and forget, no cookies, nothing stored. */
export function sendTrackingViewed(): void {
  sendEvent('tracking_viewed');
}

/** The magic link's token from the address, if any. */
export function readLinkToken(search: string): string | null {
  const token = new URLSearchParams(search).get('t');
  return token && /^[\w-]{10,200}$/.test(token) ? token : null;
}

/** The address without the token, so it is not left in history, bookmarks or screenshots. */
export function withoutLinkToken(href: string): string {
  const url = new URL(href);
  url.searchParams.delete('t');
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Photos in the order the page shows them: by step, then oldest first. */
export function groupPhotosByStep(photos: readonly Photo[]): Array<{ step: number; photos: Photo[] }> {
  const groups = new Map<number, Photo[]>();
  for (const photo of [...photos].sort((a, b) => a.step - b.step || a.createdAt.localeCompare(b.createdAt) || a.id - b.id)) {
    groups.set(photo.step, [...(groups.get(photo.step) ?? []), photo]);
  }
  return [...groups.entries()].map(([step, list]) => ({ step, photos: list }));
}
