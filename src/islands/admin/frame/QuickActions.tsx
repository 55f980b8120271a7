/**
 * Quick Actions (admin-dashboard.md §2): the data as JSON in a new tab, as the spec lists, and
 * as CSV downloads that a spreadsheet opens. Plain links: the browser sends the session cookie
 * and saves the attachment itself. Logout sits once, in the header beside the title.
 */
const LINK = 'btn-secondary inline-flex min-h-11 items-center justify-center px-3 text-center text-sm leading-snug sm:px-6';

export function QuickActions() {
  return (
    <section aria-labelledby="quick-actions" className="card mt-6 p-4 sm:p-5">
      <h2 id="quick-actions" className="text-lg">
        Quick Actions
      </h2>
      <div className="mt-3 grid grid-cols-2 gap-2 lg:flex lg:flex-wrap">
        <a className={LINK} href="/api/admin/export/bookings.csv" download>
          Download bookings (CSV)
        </a>
        <a className={LINK} href="/api/admin/export/contacts.csv" download>
          Download enquiries (CSV)
        </a>
        <a className={LINK} href="/api/bookings" target="_blank" rel="noopener">
          View bookings data<span className="sr-only"> (opens in a new tab)</span>
        </a>
        <a className={LINK} href="/api/contacts" target="_blank" rel="noopener">
          View contacts data<span className="sr-only"> (opens in a new tab)</span>
        </a>
      </div>
    </section>
  );
}
