import { describe, expect, it } from 'vitest';
import {
  buildInstallationInvite,
  escapeText,
  foldLine,
  type InstallationInvite,
  installationUid,
  nextInviteSequence,
} from './ics.ts';
import { readInvite } from '../../tests/setup/ical.ts';

const octets = (line: string) => new TextEncoder().encode(line).length;

const INVITE: InstallationInvite = {
  bookingId: 42,
  sequence: 0,
  status: 'confirmed',
  date: '2026-07-16',
  workType: 'day',
  summary: 'Clean Patch installation',
  description: 'Booking 42: 5 patches.',
  location: 'Piccadilly, Manchester M1 1RG',
  organizerName: 'Clean Patch',
  organizerEmail: 'hello@cleanpatch.co.uk',
  attendeeEmail: 'jo@example.com',
  siteUrl: 'https://cleanpatch.co.uk',
  now: new Date('2026-07-01T08:30:05.123Z'),
};

const VTIMEZONE = [
  'BEGIN:VTIMEZONE',
  'TZID:Europe/London',
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

/** One VEVENT property's line, unfolded. */
const property = (text: string, name: string) =>
  text.replace(/\r\n /g, '').split('BEGIN:VEVENT')[1]!.split('\r\n').find((line) => line.startsWith(`${name}:`) || line.startsWith(`${name};`));

describe('buildInstallationInvite', () => {
  it('writes the whole day-work invite, CRLF throughout', () => {
    expect(buildInstallationInvite(INVITE)).toBe(
      [
        'BEGIN:VCALENDAR',
        'PRODID:-//Clean Patch//Installation invite//EN',
        'VERSION:2.0',
        'CALSCALE:GREGORIAN',
        'METHOD:REQUEST',
        ...VTIMEZONE,
        'BEGIN:VEVENT',
        'UID:booking-42@cleanpatch.co.uk',
        'SEQUENCE:0',
        'DTSTAMP:20260701T083005Z',
        'DTSTART;TZID=Europe/London:20260716T090000',
        'DTEND;TZID=Europe/London:20260716T170000',
        'SUMMARY:Clean Patch installation',
        'LOCATION:Piccadilly\\, Manchester M1 1RG',
        'DESCRIPTION:Booking 42: 5 patches.',
        'URL:https://cleanpatch.co.uk/track-project',
        'ORGANIZER;CN="Clean Patch":mailto:hello@cleanpatch.co.uk',
        'ATTENDEE;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=FALSE:mailto:jo@ex',
        ' ample.com',
        'STATUS:CONFIRMED',
        'TRANSP:OPAQUE',
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n'),
    );
  });

  it.each<[string, Partial<InstallationInvite>, string, string]>([
    ['day work, 09:00 to 17:00', {}, '20260716T090000', '20260716T170000'],
    ['night work, 18:00 to 06:00 the next morning', { workType: 'night' }, '20260716T180000', '20260717T060000'],
    ['night work crosses a month end', { workType: 'night', date: '2026-07-31' }, '20260731T180000', '20260801T060000'],
    ['night work crosses the year end', { workType: 'night', date: '2026-12-31' }, '20261231T180000', '20270101T060000'],
    ['night work on the night the clocks go back keeps wall-clock times', { workType: 'night', date: '2026-10-24' }, '20261024T180000', '20261025T060000'],
    ['day work in winter is 09:00 London too', { date: '2026-01-15' }, '20260115T090000', '20260115T170000'],
  ])('%s', (_, change, start, end) => {
    const text = buildInstallationInvite({ ...INVITE, ...change });
    expect(property(text, 'DTSTART')).toBe(`DTSTART;TZID=Europe/London:${start}`);
    expect(property(text, 'DTEND')).toBe(`DTEND;TZID=Europe/London:${end}`);
  });

  it.each([
    ['the first invite', 0],
    ['after one date change', 1],
    ['after three', 3],
  ])('SEQUENCE for %s: %i, with the same UID', (_, sequence) => {
    const text = buildInstallationInvite({ ...INVITE, sequence });
    expect(property(text, 'SEQUENCE')).toBe(`SEQUENCE:${sequence}`);
    expect(property(text, 'UID')).toBe('UID:booking-42@cleanpatch.co.uk');
  });

  it('escapes TEXT values and folds long ones within 75 octets', () => {
    const text = buildInstallationInvite({
      ...INVITE,
      summary: 'Installation; 5 patches, night',
      description: 'Line one\nLine two\r\nPath C:\\stencils; size 600x900, café ☕ — see you at the Northern Quarter, Manchester',
    });
    expect(property(text, 'SUMMARY')).toBe('SUMMARY:Installation\\; 5 patches\\, night');
    expect(property(text, 'DESCRIPTION')).toBe(
      'DESCRIPTION:Line one\\nLine two\\nPath C:\\\\stencils\\; size 600x900\\, café ☕ — see you at the Northern Quarter\\, Manchester',
    );
    for (const line of text.split('\r\n')) expect(octets(line)).toBeLessThanOrEqual(75);
    expect(text).not.toMatch(/[^\r]\n/);
  });

  it.each([
    ['a date that is not one', { date: '2026-02-30' }],
    ['a negative sequence', { sequence: -1 }],
    ['an attendee address that would break the line', { attendeeEmail: 'jo@example.com;RSVP=TRUE' }],
  ])('refuses %s', (_, change) => {
    expect(() => buildInstallationInvite({ ...INVITE, ...change })).toThrow(RangeError);
  });
});

describe('foldLine', () => {
  it.each([
    ['75 octets stay on one line', 'x'.repeat(75), ['x'.repeat(75)]],
    ['76 octets fold once; the continuation starts with a space', 'x'.repeat(76), ['x'.repeat(75), ' x']],
    ['continuations hold 74 octets after their space', 'x'.repeat(75 + 74 + 1), ['x'.repeat(75), ` ${'x'.repeat(74)}`, ' x']],
    // 'é' is 2 octets: 74 x's plus 'é' would be 76, so the 'é' moves to the next line whole.
    ['never inside a UTF-8 sequence', `${'x'.repeat(74)}é`, ['x'.repeat(74), ' é']],
    ['a 4-octet character is not split either', `${'x'.repeat(73)}☕🙂`, [`${'x'.repeat(73)}`, ' ☕🙂']],
    ['an empty line stays empty', '', ['']],
  ])('%s', (_, line, expected) => {
    expect(foldLine(line)).toBe(expected.join('\r\n'));
    for (const part of expected) expect(octets(part)).toBeLessThanOrEqual(75);
  });
});

describe('escapeText', () => {
  it.each([
    ['plain', 'plain'],
    ['a, b', 'a\\, b'],
    ['a; b', 'a\\; b'],
    ['back\\slash', 'back\\\\slash'],
    ['one\ntwo', 'one\\ntwo'],
    ['one\r\ntwo\rthree', 'one\\ntwo\\nthree'],
    ['colon: stays', 'colon: stays'],
  ])('%j → %j', (value, escaped) => {
    expect(escapeText(value)).toBe(escaped);
  });
});

describe('installationUid', () => {
  it.each([
    [42, 'https://cleanpatch.co.uk', 'booking-42@cleanpatch.co.uk'],
    [7, 'http://localhost:4321/', 'booking-7@localhost'],
  ])('%i at %s → %s', (id, siteUrl, uid) => {
    expect(installationUid(id, siteUrl)).toBe(uid);
  });
});

describe('nextInviteSequence', () => {
  it.each([
    ['first invite', null, '2026-07-16', 0],
    ['resent for the same date', { sequence: 2, date: '2026-07-16' }, '2026-07-16', 2],
    ['date moved', { sequence: 2, date: '2026-07-16' }, '2026-07-18', 3],
  ])('%s → %i', (_, previous, date, sequence) => {
    expect(nextInviteSequence(previous, date)).toBe(sequence);
  });
});

describe('every invite reads correctly in a calendar library (ical.js)', () => {
  it.each<[string, Partial<InstallationInvite>, string, string]>([
    // 29 March 2026: clocks go forward at 01:00 GMT. Night work the evening before ends in BST.
    ['night work across the spring change', { workType: 'night', date: '2026-03-28' }, '2026-03-28T18:00:00.000Z', '2026-03-29T05:00:00.000Z'],
    ['day work the day of the spring change is BST', { date: '2026-03-29' }, '2026-03-29T08:00:00.000Z', '2026-03-29T16:00:00.000Z'],
    // 25 October 2026: clocks go back at 02:00 BST. Night work the evening before ends in GMT.
    ['night work across the autumn change', { workType: 'night', date: '2026-10-24' }, '2026-10-24T17:00:00.000Z', '2026-10-25T06:00:00.000Z'],
    ['day work the day after the autumn change is GMT', { date: '2026-10-26' }, '2026-10-26T09:00:00.000Z', '2026-10-26T17:00:00.000Z'],
    ['summer day work', {}, '2026-07-16T08:00:00.000Z', '2026-07-16T16:00:00.000Z'],
  ])('%s: the right London times as instants', (_, change, start, end) => {
    const read = readInvite(buildInstallationInvite({ ...INVITE, ...change }));
    expect(read.startZone).toBe('Europe/London');
    expect([read.start.toISOString(), read.end.toISOString()]).toEqual([start, end]);
  });

  it.each<[InstallationInvite['status'], string, string]>([
    ['tentative', 'REQUEST', 'TENTATIVE'],
    ['confirmed', 'REQUEST', 'CONFIRMED'],
    ['cancelled', 'CANCEL', 'CANCELLED'],
  ])('a %s invite is METHOD:%s with STATUS:%s, same UID', (status, method, eventStatus) => {
    const read = readInvite(buildInstallationInvite({ ...INVITE, status, sequence: 2 }));
    expect(read).toMatchObject({ method, status: eventStatus, sequence: 2, uid: 'booking-42@cleanpatch.co.uk' });
  });

  it('a cancelled event no longer blocks the time', () => {
    const text = buildInstallationInvite({ ...INVITE, status: 'cancelled' });
    expect(property(text, 'TRANSP')).toBe('TRANSP:TRANSPARENT');
    expect(text).toContain('\r\nMETHOD:CANCEL\r\n');
  });
});
