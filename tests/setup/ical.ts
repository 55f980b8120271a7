import ICAL from 'ical.js';

// Reads an invite the way a calendar app does, with ical.js: parse errors throw, the event's
// times are resolved through the invite's own VTIMEZONE into instants.

export interface ReadInvite {
  method: string;
  uid: string;
  sequence: number;
  status: string;
  /** The event's start and end as instants (UTC), through the invite's time zone. */
  start: Date;
  end: Date;
  /** The zone the start time names (TZID). */
  startZone: string;
}

export function readInvite(ics: string): ReadInvite {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  for (const zone of calendar.getAllSubcomponents('vtimezone')) {
    const timezone = new ICAL.Timezone(zone);
    // Registered under its TZID, so the times below are read in it (not as floating times).
    ICAL.TimezoneService.register(timezone, timezone.tzid);
  }
  const events = calendar.getAllSubcomponents('vevent');
  if (events.length !== 1) throw new Error(`Expected one VEVENT, found ${events.length}`);
  const event = new ICAL.Event(events[0]!);
  const property = (name: string) => {
    const value = events[0]!.getFirstPropertyValue(name);
    if (value === null || value === undefined) throw new Error(`Missing ${name}`);
    return String(value);
  };
  return {
    method: String(calendar.getFirstPropertyValue('method')),
    uid: event.uid,
    sequence: event.sequence,
    status: property('status'),
    start: event.startDate.toJSDate(),
    end: event.endDate.toJSDate(),
    startZone: event.startDate.zone?.tzid ?? 'floating',
  };
}
