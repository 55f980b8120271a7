import { describe, expect, it } from 'vitest';
import {
  addWorkingDays,
  bankHolidays,
  bookableDayRefusal,
  earliestBookableDate,
  isWorkingDay,
  leadWorkingDays,
  RUSH_LEAD_WORKING_DAYS,
} from './booking-days.ts';

describe('England and Wales bank holidays', () => {
  it.each([
    [2026, ['2026-01-01', '2026-04-03', '2026-04-06', '2026-05-04', '2026-05-25', '2026-08-31', '2026-12-25', '2026-12-28']],
    [2027, ['2027-01-01', '2027-03-26', '2027-03-29', '2027-05-03', '2027-05-31', '2027-08-30', '2027-12-27', '2027-12-28']],
    [2028, ['2028-01-03', '2028-04-14', '2028-04-17', '2028-05-01', '2028-05-29', '2028-08-28', '2028-12-25', '2028-12-26']],
    [2029, ['2029-01-01', '2029-03-30', '2029-04-02', '2029-05-07', '2029-05-28', '2029-08-27', '2029-12-25', '2029-12-26']],
    [2032, ['2032-01-01', '2032-03-26', '2032-03-29', '2032-05-03', '2032-05-31', '2032-08-30', '2032-12-27', '2032-12-28']],
  ])('%i follows the standing rules and their weekend substitutes', (year, expected) => {
    expect([...bankHolidays(year)].sort()).toEqual(expected);
  });
});

describe('working days', () => {
  it.each([
    ['2026-11-30', true], // Monday
    ['2026-11-28', false], // Saturday
    ['2026-11-29', false], // Sunday
    ['2026-12-28', false], // Boxing Day's substitute
  ])('%s is a working day: %s', (date, expected) => {
    expect(isWorkingDay(date)).toBe(expected);
  });

  it.each([
    ['2026-11-28', 5, '2026-12-04'], // from a Saturday: Mon-Fri of the next week
    ['2026-11-27', 2, '2026-12-01'], // a Friday: Monday and Tuesday
    ['2026-12-23', 2, '2026-12-29'], // over Christmas and its substitute
    ['2026-11-30', 0, '2026-11-30'],
  ])('%s plus %i working days is %s', (from, count, expected) => {
    expect(addWorkingDays(from, count)).toBe(expected);
  });
});

describe('the days a customer may choose', () => {
  it('gives a Rush Job a two working-day lead, and never more than the standard one', () => {
    expect(leadWorkingDays(true, 5)).toBe(RUSH_LEAD_WORKING_DAYS);
    expect(leadWorkingDays(false, 5)).toBe(5);
    expect(leadWorkingDays(true, 1)).toBe(1);
  });

  it.each([
    ['2026-11-28', 5, '2026-12-04'],
    ['2026-11-28', 2, '2026-12-01'],
    ['2026-12-24', 5, '2027-07-01'], // the lead ends in January: the season opens on 1 July
    ['2027-03-10', 5, '2027-07-01'],
    ['2027-06-28', 5, '2027-07-05'],
  ])('on %s with a lead of %i the first day is %s', (today, lead, expected) => {
    expect(earliestBookableDate(today, lead)).toBe(expected);
  });

  it.each([
    ['2026-12-04', null],
    ['2026-12-03', 'too-soon'],
    ['2027-02-01', 'before-july'],
    ['2027-07-01', null],
    ['2029-07-01', 'beyond-horizon'],
    ['2026-02-30', 'invalid'],
  ])('on 2026-11-28 with the standard lead, %s is refused for %s', (date, refusal) => {
    expect(bookableDayRefusal(date, '2026-11-28', 5)).toBe(refusal);
  });
});
