import type { AnalyticsEventName } from '../domain/analytics-events.ts';

/**
 * The page-view beacon (public-site.md §7): sent once per page load; a failure is ignored.
 * keepalive lets it finish even when the visitor leaves at once.
 */
export function sendPageView(path = window.location.pathname) {
  const body = JSON.stringify({
    path,
    timestamp: new Date().toISOString(),
    referrer: document.referrer,
    userAgent: navigator.userAgent.slice(0, 200),
  });
  fetch('/api/analytics/pageview', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body,
    keepalive: true,
    credentials: 'same-origin',
  }).catch(() => {
    /* analytics must never disturb the visitor */
  });
}

// Names already sent by sendEventOnce: module state lives exactly as long as the page load.
const sentThisPage = new Set<AnalyticsEventName>();

/**
 * A user event for the admin's "user events in the last 24 hours" (api.md). Only the shared
 * names exist (src/domain/analytics-events.ts); nothing is kept in the browser (no cookie, no
 * local storage: UK PECR). Islands call it after the thing happened, e.g. the contact form on
 * success: `sendEvent('enquiry_sent')`, the tracking page on load: `sendEvent('tracking_viewed')`.
 */
export function sendEvent(eventName: AnalyticsEventName, path = window.location.pathname) {
  fetch('/api/analytics/event', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ eventName, path }),
    keepalive: true,
    credentials: 'same-origin',
  }).catch(() => {
    /* analytics must never disturb the visitor */
  });
}

/** sendEvent at most once per page load, however often the moment repeats (every keystroke). */
export function sendEventOnce(eventName: AnalyticsEventName) {
  if (sentThisPage.has(eventName)) return;
  sentThisPage.add(eventName);
  sendEvent(eventName);
}
