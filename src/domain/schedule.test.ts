import { describe, expect, it } from 'vitest';
import {
  installationDay,
  isDayBeforeInstallation,
  isWorkerNotificationHour,
  londonParts,
  londonTomorrow,
  toLondonDate,
  WORKER_NOTIFICATION_CRON,
  workerRunKey,
} from './schedule.ts';

// 2026 clock changes: BST from 29 March 01:00 UTC, GMT again from 25 October 01:00 UTC.
const utc = (iso: string) => new Date(iso);

describe('WORKER_NOTIFICATION_CRON', () => {
  it('runs at 17:00 and 18:00 UTC every day', () => {
    expect(WORKER_NOTIFICATION_CRON).toBe('0 17,18 * * *');
  });
});

describe('londonParts', () => {
  it.each([
    ['winter: London is on UTC', '2026-01-15T17:00:00Z', '2026-01-15', 17, 0],
    ['summer: London is an hour ahead', '2026-07-15T17:00:00Z', '2026-07-15', 18, 0],
    ['the last GMT minute before the spring change', '2026-03-29T00:59:00Z', '2026-03-29', 0, 59],
    ['the spring change: 01:00 UTC is 02:00 BST', '2026-03-29T01:00:00Z', '2026-03-29', 2, 0],
    ['the last BST minute before the autumn change', '2026-10-25T00:59:00Z', '2026-10-25', 1, 59],
    ['the autumn change: 01:00 UTC is 01:00 GMT again', '2026-10-25T01:00:00Z', '2026-10-25', 1, 0],
    ['late night UTC in summer is already tomorrow in London', '2026-07-15T23:30:00Z', '2026-07-16', 0, 30],
    ['late night UTC at a summer month end', '2026-06-30T23:00:00Z', '2026-07-01', 0, 0],
    ['late night UTC in winter is still today in London', '2026-12-31T23:30:00Z', '2026-12-31', 23, 30],
    ['midnight is hour 0, never 24', '2026-01-01T00:00:00Z', '2026-01-01', 0, 0],
  ])('%s (%s)', (_, instant, date, hour, minute) => {
    expect(londonParts(utc(instant))).toEqual({ date, hour, minute });
  });

  it('refuses an invalid instant', () => {
    expect(() => londonParts(new Date('nonsense'))).toThrow(RangeError);
  });
});

describe('isWorkerNotificationHour: of the two daily UTC runs, exactly one acts', () => {
  it.each([
    ['winter day, 17:00 UTC = 17:00 GMT', '2026-01-15T17:00:00Z', false],
    ['winter day, 18:00 UTC = 18:00 GMT', '2026-01-15T18:00:00Z', true],
    ['summer day, 17:00 UTC = 18:00 BST', '2026-07-15T17:00:00Z', true],
    ['summer day, 18:00 UTC = 19:00 BST', '2026-07-15T18:00:00Z', false],
    ['the Saturday before the spring change, 17:00 UTC', '2026-03-28T17:00:00Z', false],
    ['the Saturday before the spring change, 18:00 UTC', '2026-03-28T18:00:00Z', true],
    ['the spring change day, 17:00 UTC', '2026-03-29T17:00:00Z', true],
    ['the spring change day, 18:00 UTC', '2026-03-29T18:00:00Z', false],
    ['the Saturday before the autumn change, 17:00 UTC', '2026-10-24T17:00:00Z', true],
    ['the Saturday before the autumn change, 18:00 UTC', '2026-10-24T18:00:00Z', false],
    ['the autumn change day, 17:00 UTC', '2026-10-25T17:00:00Z', false],
    ['the autumn change day, 18:00 UTC', '2026-10-25T18:00:00Z', true],
    ['a run that starts a few minutes late still counts', '2026-01-15T18:04:30Z', true],
  ])('%s → %s', (_, instant, acts) => {
    expect(isWorkerNotificationHour(utc(instant))).toBe(acts);
  });
});

describe('workerRunKey', () => {
  it.each([
    ['2026-07-15T17:00:00Z', '2026-07-15'],
    ['2026-07-15T18:00:00Z', '2026-07-15'],
    ['2026-10-25T17:00:00Z', '2026-10-25'],
    ['2026-10-25T18:00:00Z', '2026-10-25'],
    // A retry after midnight UTC in summer belongs to the next London day.
    ['2026-07-15T23:10:00Z', '2026-07-16'],
  ])('%s → %s (the London date)', (instant, key) => {
    expect(workerRunKey(utc(instant))).toBe(key);
  });
});

describe('londonTomorrow', () => {
  it.each([
    ['2026-07-15T17:00:00Z', '2026-07-16'],
    ['2026-03-28T18:00:00Z', '2026-03-29'],
    ['2026-10-24T17:00:00Z', '2026-10-25'],
    ['2026-10-25T18:00:00Z', '2026-10-26'],
    ['2026-02-28T18:00:00Z', '2026-03-01'],
    ['2028-02-28T18:00:00Z', '2028-02-29'],
    ['2026-04-30T17:00:00Z', '2026-05-01'],
    ['2026-12-31T18:00:00Z', '2027-01-01'],
    // 23:30 UTC on 30 June is 00:30 on 1 July in London: tomorrow is 2 July.
    ['2026-06-30T23:30:00Z', '2026-07-02'],
    ['2026-12-31T23:30:00Z', '2027-01-01'],
  ])('%s → %s', (instant, tomorrow) => {
    expect(londonTomorrow(utc(instant))).toBe(tomorrow);
  });
});

describe('isDayBeforeInstallation', () => {
  it.each<[string, string, Date | string, boolean]>([
    ['the evening before, summer', '2026-07-15T17:00:00Z', '2026-07-16', true],
    ['the evening before, winter', '2026-01-15T18:00:00Z', '2026-01-16', true],
    ['the installation day itself', '2026-07-16T17:00:00Z', '2026-07-16', false],
    ['two days before', '2026-07-14T17:00:00Z', '2026-07-16', false],
    ['after midnight in London, though not in UTC', '2026-07-15T23:30:00Z', '2026-07-16', false],
    ['after midnight in London: the next day is due', '2026-07-15T23:30:00Z', '2026-07-17', true],
    ['an installation instant is read on London\'s clock', '2026-07-15T12:00:00Z', '2026-07-15T23:30:00Z', true],
    ['an installation Date', '2026-10-24T17:00:00Z', new Date('2026-10-25T08:00:00Z'), true],
    ['across the year end', '2026-12-31T18:00:00Z', '2027-01-01', true],
    ['across the spring change', '2026-03-28T18:00:00Z', '2026-03-29', true],
  ])('%s', (_, instant, installationDate, due) => {
    expect(isDayBeforeInstallation(utc(instant), installationDate)).toBe(due);
  });

  it.each(['2026-02-30', 'soon', ''])('refuses an installation date that is not one: %j', (value) => {
    expect(() => toLondonDate(value)).toThrow(RangeError);
  });
});

describe('installationDay', () => {
  it('is the installation date read on London time once set, else the preferred date', () => {
    expect(installationDay({ preferredDate: '2026-07-14', installationDate: null })).toBe('2026-07-14');
    // 23:30 UTC in July is 00:30 the next day in London (BST).
    expect(installationDay({ preferredDate: '2026-07-14', installationDate: new Date('2026-07-15T23:30:00Z') })).toBe('2026-07-16');
    expect(installationDay({ preferredDate: '2026-07-14', installationDate: '2026-12-01T23:30:00Z' })).toBe('2026-12-01');
  });
});
