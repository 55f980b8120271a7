import { addDays, isIsoDate } from './format.ts';
import type { WorkType } from './pricing.ts';
import { LONDON_TIME_ZONE } from './schedule.ts';

// The calendar invite attached to the installation e-mails (RFC 5545, iTIP RFC 5546). One UID per
// booking, so a calendar app replaces the event whenever the SEQUENCE goes up: when the date moves,
// when payment turns a TENTATIVE hold into a CONFIRMED installation, and when a METHOD:CANCEL
// removes it. Times are London wall-clock times with a VTIMEZONE, so the event stays at 09:00 even
// across a clock change.

/**
 * What the invite says of the installation: 'tentative' while the booking is unpaid (its date is
 * only held), 'confirmed' once paid, 'cancelled' when the event should leave the calendar.
 */
export type InviteStatus = 'tentative' | 'confirmed' | 'cancelled';

/** A cancellation is iTIP's CANCEL; anything else is a REQUEST that adds or updates the event. */
export const inviteMethod = (status: InviteStatus) => (status === 'cancelled' ? 'CANCEL' : 'REQUEST');

/** Content-Type for the attachment; calendar apps read the method from it as well. */
export const icsContentType = (status: InviteStatus) => `text/calendar; charset=utf-8; method=${inviteMethod(status)}`;
export const ICS_FILE_NAME = 'installation.ics';

/**
 * Working hours in London (public-site.md section 9, "Times": day work 9am-5pm, night work
 * 6pm-6am). Night work ends on the morning after the installation date.
 */
export const WORK_HOURS: Readonly<Record<WorkType, { start: number; end: number; endsNextDay: boolean }>> = {
  day: { start: 9, end: 17, endsNextDay: false },
  night: { start: 18, end: 6, endsNextDay: true },
};

export interface InstallationInvite {
  bookingId: number;
  /** 0 for the first invite; bump it each time the date, the status (or anything shown) changes. */
  sequence: number;
  status: InviteStatus;
  /** The installation date in London, 'YYYY-MM-DD'. */
  date: string;
  workType: WorkType;
  summary: string;
  description: string;
  location: string;
  /** The business's name (BUSINESS.name): the organiser calendar apps show, and the PRODID. */
  organizerName: string;
  organizerEmail: string;
  attendeeEmail: string;
  /** The site's origin, e.g. 'https://cleanpatch.co.uk': the UID's host and the event's URL. */
  siteUrl: string;
  /** The event's link; by default the site's /track-project page. */
  url?: string;
  /** When the invite is made (DTSTAMP). */
  now: Date;
}

/** Octets per line before folding (RFC 5545 section 3.1), CRLF excluded. */
const MAX_LINE_OCTETS = 75;

/**
 * Folds a content line into lines of at most 75 octets; each continuation starts with one space
 * (which counts towards its 75). Splits only between characters, never inside a UTF-8 sequence.
 */
export function foldLine(line: string): string {
  // Most lines are short and ASCII (one octet per character): nothing to fold.
  if (line.length <= MAX_LINE_OCTETS && /^[\x00-\x7f]*$/.test(line)) return line;
  const lines: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = utf8Octets(char.codePointAt(0)!);
    if (octets + size > MAX_LINE_OCTETS) {
      lines.push(current);
      current = ' ';
      octets = 1;
    }
    current += char;
    octets += size;
  }
  lines.push(current);
  return lines.join('\r\n');
}

/** How many octets UTF-8 gives one code point (computed, not encoded: this runs per character). */
function utf8Octets(codePoint: number): number {
  return codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
}

/** A TEXT value escaped (RFC 5545 section 3.3.11): backslash, semicolon, comma, newline. */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/** An e-mail address as a mailto: URI; refuses characters that would break the line's syntax. */
function mailto(email: string): string {
  const address = email.trim();
  if (!/^[^\s@:;,"<>\\]+@[^\s@:;,"<>\\]+$/.test(address)) throw new RangeError(`Not an e-mail address: ${email}`);
  return `mailto:${address}`;
}

/** A parameter value, always quoted (RFC 5545 section 3.2); DQUOTE and controls cannot be quoted. */
const paramValue = (value: string) => `"${value.replace(/["\u0000-\u001f\u007f]/g, '')}"`;

/** 'YYYY-MM-DD' + hour → '20260716T090000' (local, floating; used with TZID). */
const localDateTime = (isoDate: string, hour: number) => `${isoDate.replaceAll('-', '')}T${String(hour).padStart(2, '0')}0000`;

/** An instant in UTC basic format: '20260701T083000Z'. */
const utcDateTime = (instant: Date) => instant.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '');

/**
 * Europe/London since 1996: BST from 01:00 GMT on the last Sunday of March to 01:00 GMT (02:00
 * BST) on the last Sunday of October. Onsets are in the local time in force before them.
 */
const LONDON_VTIMEZONE = [
  'BEGIN:VTIMEZONE',
  `TZID:${LONDON_TIME_ZONE}`,
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:+0000',
  'TZOFFSETTO:+0100',
  'TZNAME:BST',
  'DTSTART:19810329T010000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0000',
  'TZNAME:GMT',
  'DTSTART:19961027T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];

/** The stable UID of a booking's installation event: 'booking-42@cleanpatch.co.uk'. */
export function installationUid(bookingId: number, siteUrl: string): string {
  return `booking-${bookingId}@${new URL(siteUrl).hostname}`;
}

/**
 * The SEQUENCE for a re-sent invite: unchanged when the date is the same (a resend), one more
 * when it moved, so calendar apps replace the old event. (A change of status always takes the
 * next SEQUENCE: see the callers in services/bookings/installation-invites.ts.)
 */
export function nextInviteSequence(previous: { sequence: number; date: string } | null, date: string): number {
  if (!previous) return 0;
  return previous.date === date ? previous.sequence : previous.sequence + 1;
}

/** The invite as RFC 5545 text, CRLF line endings, ending with a CRLF. */
export function buildInstallationInvite(invite: InstallationInvite): string {
  if (!isIsoDate(invite.date)) throw new RangeError(`Not a calendar date (YYYY-MM-DD): ${invite.date}`);
  if (!Number.isInteger(invite.sequence) || invite.sequence < 0) throw new RangeError('SEQUENCE must be a whole number from 0');
  const hours = WORK_HOURS[invite.workType];
  const endDate = hours.endsNextDay ? addDays(invite.date, 1) : invite.date;
  const url = invite.url ?? new URL('/track-project', invite.siteUrl).href;

  const lines = [
    'BEGIN:VCALENDAR',
    `PRODID:${escapeText(`-//${invite.organizerName}//Installation invite//EN`)}`,
    'VERSION:2.0',
    'CALSCALE:GREGORIAN',
    `METHOD:${inviteMethod(invite.status)}`,
    ...LONDON_VTIMEZONE,
    'BEGIN:VEVENT',
    `UID:${installationUid(invite.bookingId, invite.siteUrl)}`,
    `SEQUENCE:${invite.sequence}`,
    `DTSTAMP:${utcDateTime(invite.now)}`,
    `DTSTART;TZID=${LONDON_TIME_ZONE}:${localDateTime(invite.date, hours.start)}`,
    `DTEND;TZID=${LONDON_TIME_ZONE}:${localDateTime(endDate, hours.end)}`,
    `SUMMARY:${escapeText(invite.summary)}`,
    `LOCATION:${escapeText(invite.location)}`,
    `DESCRIPTION:${escapeText(invite.description)}`,
    `URL:${url}`,
    `ORGANIZER;CN=${paramValue(invite.organizerName)}:${mailto(invite.organizerEmail)}`,
    `ATTENDEE;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=FALSE:${mailto(invite.attendeeEmail)}`,
    `STATUS:${invite.status.toUpperCase()}`,
    // A cancelled event no longer blocks the customer's time.
    `TRANSP:${invite.status === 'cancelled' ? 'TRANSPARENT' : 'OPAQUE'}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}
