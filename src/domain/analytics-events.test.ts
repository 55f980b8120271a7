import { describe, expect, it } from 'vitest';
import { ANALYTICS_EVENTS, analyticsEventLabel, isStaffPage } from './analytics-events.ts';

describe('analyticsEventLabel', () => {
  it.each([
    ['booking_started', 'Booking form started'],
    ['booking_submitted', 'Booking submitted'],
    ['payment_succeeded', 'Payment succeeded'],
    ['enquiry_sent', 'Enquiry sent'],
    ['tracking_viewed', 'Project tracking viewed'],
    // Names the map does not know (an old row) still read as words.
    ['quote_requested', 'Quote requested'],
    ['newsletter-signup', 'Newsletter signup'],
  ])('%s reads as %s', (name, label) => {
    expect(analyticsEventLabel(name)).toBe(label);
  });

  it('labels every event the site sends in words', () => {
    for (const name of ANALYTICS_EVENTS) expect(analyticsEventLabel(name)).not.toMatch(/_/);
  });
});

describe('isStaffPage', () => {
  it.each([
    ['/admin', true],
    ['/admin/', true],
    ['/admin?tab=analytics', true],
    ['/crew', true],
    ['/crew/today#stop-3', true],
    ['/Admin', true],
    ['/', false],
    ['/administration', false],
    ['/crews', false],
    ['/gallery/admin', false],
  ])('%s: %s', (path, isStaff) => {
    expect(isStaffPage(path)).toBe(isStaff);
  });
});
