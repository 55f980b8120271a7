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
