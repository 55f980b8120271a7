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
