import { describe, expect, it } from 'vitest';
import { installationDateNote } from './ProgressDialogs.tsx';

describe('installationDateNote (the On-Site Installation dialog)', () => {
  it.each([
    // [scheduled, chosen, today, note]
    ['2027-07-20', '2027-07-20', '2027-07-20', null],
    ['2027-07-20', '2027-07-20', '2027-07-22', 'Scheduled for Tue 20 July — not today.'],
    ['2027-07-20', '2027-07-20', '2026-11-25', 'Scheduled for Tue 20 July 2027 — not today.'],
    ['2027-07-20', '2027-07-23', '2027-07-22', 'Moves the installation from Tue 20 July to Fri 23 July. The customer gets an updated calendar invite.'],
    // A day already past records what happened: no invite goes for it.
    ['2027-07-20', '2027-07-21', '2027-07-22', 'Moves the installation from Tue 20 July to Wed 21 July.'],
    ['2027-07-20', '', '2027-07-22', null],
  ])('scheduled %s, chosen %s, today %s: %s', (planned, chosen, today, note) => {
    expect(installationDateNote(planned, chosen, today)).toBe(note);
  });
});
