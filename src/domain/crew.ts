import { WORKING_HOURS } from '../content/working-hours.ts';
import { addDays } from './format.ts';
import type { WorkType } from './pricing.ts';
import { londonParts } from './schedule.ts';

// The crew's day (api.md "Crew day"): pure rules shared by the /crew page and the server.

export const CREW_STOP_STATUSES = ['planned', 'on_the_way', 'started', 'done'] as const;
export type CrewStopStatus = (typeof CREW_STOP_STATUSES)[number];

export const CREW_PHOTO_TYPES = ['before', 'during', 'after'] as const;
export type CrewPhotoType = (typeof CREW_PHOTO_TYPES)[number];

/**
 * A crew link works for its London day and the next morning, until this hour (London): a night
 * shift (6pm-6am) ends on the next morning, and a crew uploading its last photos over breakfast
 * is still covered. After it the link answers 410.
 */
export const CREW_LINK_CUTOFF_LONDON_HOUR = 12;

/**
 * How long a crew can take back a Done (a tap on the wrong card, a job not quite finished): the
 * stop and the project go back to where they were. After it only staff change the project.
 */
export const CREW_UNDO_MINUTES = 5;

export const CREW_MESSAGES = {
  unknownLink: 'This crew link is not valid. Ask the office for a new one.',
  expiredLink: 'This crew link has expired or was withdrawn. Ask the office for a new one.',
  stopNotFound: 'This stop is not on your day.',
  photoType: 'Photo type must be before, during or after',
  takenAt: 'takenAt must be an ISO 8601 date and time',
  tappedAt: "tappedAt must be an ISO 8601 date and time on the link's day, by the phone's clock",
  position: 'lat, lng and accuracy must be numbers in range',
  doneBeforeScheduled: 'This project is not scheduled for installation yet, so it cannot be marked done. Ask the office.',
  doneAfterInstalled: 'This project is already past installation, so it cannot be marked done again. Ask the office.',
  doneOtherDay: 'This installation is not scheduled for your day, so it cannot be marked done. Ask the office.',
  notScheduled: 'This stop is not scheduled for installation on your day. Ask the office.',
  undoTooLate: `Done can only be undone for ${CREW_UNDO_MINUTES} minutes after it is marked. Ask the office to change it.`,
  undoAfterOffice: 'The office has changed this project since, so Done cannot be undone here. Ask the office.',
} as const;

/** When a Done marked at `doneAt` can no longer be undone from the phone. */
export function crewUndoEndsAt(doneAt: Date): Date {
  return new Date(doneAt.getTime() + CREW_UNDO_MINUTES * 60_000);
}

/**
 * How far a phone's clock may run ahead of the server's (photos' `takenAt`, taps' `tappedAt`):
 * a time further ahead is a wrong clock, not a moment the crew lived through.
 */
export const CREW_CLOCK_DRIFT_MS = 10 * 60_000;

/**
 * An On my way tells the customer "will be with you shortly" only while that can still be true:
 * it reaches the server within this many minutes of the tap, and nothing the crew did at the stop
 * after the tap (a photo, Done) arrived before it. Otherwise the stop shows it, and nobody is
 * e-mailed.
 */
export const CREW_ON_MY_WAY_FRESH_MINUTES = 30;

/**
 * Whether a tap reached the server late enough for both times to be worth showing ("tapped 17:07,
 * received 17:19"): a minute or more apart, the times a person reads differ.
 */
export function arrivedLater(tappedAt: string | null, receivedAt: string | null): boolean {
  if (!tappedAt || !receivedAt) return false;
  return new Date(receivedAt).getTime() - new Date(tappedAt).getTime() >= 60_000;
}

const WEEKDAY_DAY_MONTH = new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });

/** '2026-12-04' → 'Thursday 4 December': how a crew reads the day a link is for. */
export function crewDayLabel(day: string): string {
  return WEEKDAY_DAY_MONTH.format(new Date(`${day}T00:00:00Z`)).replace(',', '');
}

/** What a link opened before its day answers: it works from the start of its London day. */
export function crewLinkNotYetOpen(day: string): string {
  return `This link opens on ${crewDayLabel(day)}`;
}

/** The 409 a crew reads past the per-stop photo cap. */
export function crewPhotoCapMessage(cap: number): string {
  return `This stop already has ${cap} photos from today, the most a stop takes. Ask the office if you need to send more.`;
}

/** When a link for `day` starts working: midnight London at the start of that day. */
export function crewLinkOpensAt(day: string): Date {
  return londonWallClock(day, 0);
}

export const CREW_STATUS_LABEL: Record<CrewStopStatus, string> = {
  planned: 'Planned',
  on_the_way: 'On the way',
  started: 'Working',
  done: 'Done',
};

/** The words a crew reads for a stop's shift, e.g. 'Night work, 6pm - 6am' (public-site.md "Times"). */
export function workHoursLabel(workType: WorkType): string {
  return `${workType === 'night' ? 'Night' : 'Day'} work, ${WORKING_HOURS[workType]}`;
}

/** The instant at which London's wall clock shows `hour`:00 on `date` ('YYYY-MM-DD'). */
export function londonWallClock(date: string, hour: number): Date {
  const guess = new Date(`${date}T${String(hour).padStart(2, '0')}:00:00Z`);
  // London is UTC or UTC+1: read the guess on London's clock and move back by the difference.
  const shown = londonParts(guess);
  const dayShift = shown.date === date ? 0 : shown.date > date ? 24 : -24;
  return new Date(guess.getTime() - (shown.hour + dayShift - hour) * 3_600_000);
}

/** Whether a crew day is over (its links have ended): the phone then forgets its stops and link. */
export function isCrewDayOver(day: string, now: Date): boolean {
  return now >= crewLinkExpiresAt(day);
}

/** When a link for `day` stops working: 12:00 London on the next day. */
export function crewLinkExpiresAt(day: string): Date {
  return londonWallClock(addDays(day, 1), CREW_LINK_CUTOFF_LONDON_HOUR);
}

/**
 * The navigation link a stop opens: Google Maps' universal `daddr` URL. On Android it opens the
 * Maps app, on an iPhone Google Maps when installed and the browser's map otherwise; a `geo:` URI
 * would be Android-only and does nothing in iOS Safari.
 */
export function navigationUrl(lat: number, lng: number): string {
  return `https://maps.google.com/?daddr=${lat.toFixed(6)},${lng.toFixed(6)}`;
}

/**
 * The link a stop's Navigate opens: to its one place (navigationUrl), or through each of its
 * places in the booking's order, from wherever the worker is: Google Maps' directions URL with
 * the last place as destination and the others as waypoints (its app takes up to 9).
 */
export function stopNavigationUrl(points: readonly { lat: number; lng: number }[]): string | null {
  if (points.length === 0) return null;
  if (points.length === 1) return navigationUrl(points[0]!.lat, points[0]!.lng);
  const coordinate = (point: { lat: number; lng: number }) => `${point.lat.toFixed(6)},${point.lng.toFixed(6)}`;
  const waypoints = points.slice(0, -1).map(coordinate).join('|');
  return `https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent(coordinate(points.at(-1)!))}&waypoints=${encodeURIComponent(waypoints)}&travelmode=driving`;
}

/** The customer's first name only: a crew needs to greet them, not to know more. */
export function firstNameOnly(firstName: string): string {
  return firstName.trim().split(/\s+/)[0] ?? '';
}

/** A photo the crew sent for a stop, as `GET /api/crew/day` lists it. */
export interface CrewStopPhoto {
  id: number;
  photoType: string;
  takenAt: string | null;
}

/** The approved stencil proof of a stop: its version, file name and the office's note (size, colours). */
export interface CrewStencil {
  version: number;
  name: string;
  note: string | null;
}

/** One stop of a worker's day, as `GET /api/crew/day` answers it. */
export interface CrewStop {
  bookingId: number;
  /** 1-based, across the worker's routes in visiting order. */
  order: number;
  routeNumber: number;
  addresses: string[];
  lat: number | null;
  lng: number | null;
  workType: WorkType;
  hours: string;
  quantity: number;
  customerFirstName: string;
  /** Staff scheduled it before the customer paid: the card says "unpaid". */
  unpaid: boolean;
  /** Directions through every place of the stop, in order; null when none is pinned. */
  navigationUrl: string | null;
  /** What the customer asked the crew to know ("Access via the side alley"), as they typed it. */
  specialInstructions: string | null;
  /** The stencil to bring: the proof version the customer approved; null while none is. */
  stencil: CrewStencil | null;
  status: CrewStopStatus;
  /** When the crew tapped the stop's status, by the phone's clock (ISO), null while planned. */
  statusAt: string | null;
  /** When the server received that tap (ISO): later than `statusAt` when it waited for signal. */
  statusReceivedAt: string | null;
  /**
   * The crew's On my way, when the server has it: the phone's time of the tap and whether the
   * customer was e-mailed (not when the tap arrived too late or after the work it announced).
   */
  onTheWay: { at: string; customerTold: boolean } | null;
  photos: CrewStopPhoto[];
}

/** `GET /api/crew/day`: the worker, the London day and its stops in visiting order. */
export interface CrewDay {
  worker: { name: string };
  date: string;
  stops: CrewStop[];
}

