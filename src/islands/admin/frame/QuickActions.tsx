import { useState } from 'react';

/**
 * Quick Actions (admin-dashboard.md §2): the data as JSON in a new tab, as the spec lists, and
 * as CSV downloads that a spreadsheet opens. Plain links: the browser sends the session cookie
 * and saves the attachment itself. Logout sits once, in the header beside the title.
 */
const LINK = 'btn-secondary inline-flex min-h-11 items-center justify-center px-3 py-2 text-center text-sm leading-snug sm:px-4';

export function QuickActions() {
  // On a phone the actions fold under their heading, so each tab's own content starts near the top.
  const [isOpen, setIsOpen] = useState(false);
  return (
    <section aria-labelledby="quick-actions" className="card mt-3 p-0 sm:mt-4 sm:p-3 lg:flex lg:items-center lg:gap-4">
      <h2 id="quick-actions" className="text-lg max-sm:text-sm lg:shrink-0 lg:text-base">
        <button
          type="button"
          aria-expanded={isOpen}
          aria-controls="quick-actions-links"
          onClick={() => setIsOpen((open) => !open)}
          className="flex min-h-11 w-full items-center justify-between px-3 text-left font-semibold sm:hidden"
        >
          Quick Actions
          <span aria-hidden="true" className="text-concrete-500">
            {isOpen ? '▲' : '▼'}
          </span>
        </button>
        <span className="max-sm:hidden">Quick Actions</span>
      </h2>
      <div id="quick-actions-links" className={`${isOpen ? 'grid px-3 pb-3' : 'hidden'} grid-cols-2 gap-2 sm:mt-2 sm:grid sm:p-0 lg:mt-0 lg:flex lg:flex-wrap`}>
        <a className={LINK} href="/api/admin/export/bookings.csv" download>
          Download bookings (CSV)
        </a>
        <a className={LINK} href="/api/admin/export/contacts.csv" download>
          Download enquiries (CSV)
        </a>
        {/* Every invoice to date, one row per line, for the accountant (api.md; ?from=&to= narrow it). */}
        <a className={LINK} href="/api/admin/invoices.csv" download>
          Download invoices (CSV)
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
