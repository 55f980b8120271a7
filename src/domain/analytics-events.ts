/**
 * The user events the public pages send to `POST /api/analytics/event` (api.md), one list for
 * both sides: the browser only sends these names and the server refuses any other, so the
 * admin's "user events in the last 24 hours" never fills with arbitrary strings.
 */
export const ANALYTICS_EVENTS = [
  /** First interaction with the booking form, once per page load. */
  'booking_started',
  /** The booking was created. */
  'booking_submitted',
  /** The payment-success page saw the booking paid. */
  'payment_succeeded',
  /** The contact form was sent. */
  'enquiry_sent',
  /** Someone opened a project's tracking page. */
  'tracking_viewed',
] as const;

export type AnalyticsEventName = (typeof ANALYTICS_EVENTS)[number];

export function isAnalyticsEventName(value: string): value is AnalyticsEventName {
  return (ANALYTICS_EVENTS as readonly string[]).includes(value);
}

/**
 * The events as the Analytics tab names them. A name missing here (an old row, a name added
 * without a label) still reads as words: see analyticsEventLabel.
 */
export const ANALYTICS_EVENT_LABELS: Readonly<Record<AnalyticsEventName, string>> = {
  booking_started: 'Booking form started',
  booking_submitted: 'Booking submitted',
  payment_succeeded: 'Payment succeeded',
  enquiry_sent: 'Enquiry sent',
  tracking_viewed: 'Project tracking viewed',
};

/** 'booking_submitted' → 'Booking submitted'; an unknown 'quote_requested' → 'Quote requested'. */
export function analyticsEventLabel(eventName: string): string {
  if (isAnalyticsEventName(eventName)) return ANALYTICS_EVENT_LABELS[eventName];
  const words = eventName.replace(/[_-]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : eventName;
}

/** The staff pages: the dashboard and the crew's day, at their own paths and anything under them. */
const STAFF_PAGE = /^\/(admin|crew)(\/|$)/;

/**
 * Whether a page-view path is a staff page, which is not a visit (the pathname only: a query or
 * fragment is ignored, and so is the case the browser happened to use).
 */
export function isStaffPage(path: string): boolean {
  const pathname = path.split(/[?#]/, 1)[0]!.toLowerCase();
  return STAFF_PAGE.test(pathname);
}
