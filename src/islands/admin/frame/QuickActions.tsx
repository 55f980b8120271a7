import { useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';

/**
 * Quick Actions (admin-dashboard.md §2): the data as JSON in a new tab, as the spec lists, and
 * as CSV downloads that a spreadsheet opens. Plain links: the browser sends the session cookie
 * and saves the attachment itself. Logout sits once, in the header beside the title. From 640 px
 * the downloads show and the raw data views, used less, fold into More, so at 1280 px the actions
 * take one row and the tabs' content starts higher.
 */
const LINK = 'btn-secondary inline-flex min-h-11 items-center justify-center px-3 py-2 text-center text-sm leading-snug sm:px-4';

export function QuickActions() {
  // On a phone the actions fold under their heading, so each tab's own content starts near the top.
  const [isOpen, setIsOpen] = useState(false);
  const [moreOpen, setMoreOpen] = useState(false);
  const moreButton = useRef<HTMLButtonElement | null>(null);
  // The menu closes when focus leaves it (a tap elsewhere, Tab past its last link) and on Escape.
  const closeWhenLeft = (event: FocusEvent<HTMLDivElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setMoreOpen(false);
  };
  const closeOnEscape = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Escape' || !moreOpen) return;
    setMoreOpen(false);
    moreButton.current?.focus();
  };
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
      <div id="quick-actions-links" className={`${isOpen ? 'grid px-3 pb-3' : 'hidden'} grid-cols-2 gap-2 sm:mt-2 sm:grid sm:p-0 lg:mt-0 lg:flex lg:flex-nowrap`}>
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
        {/* On a phone these two are cells of the folded grid; from 640 px, a menu under More. */}
        <div className="relative max-sm:contents" onBlur={closeWhenLeft} onKeyDown={closeOnEscape}>
          <button
            ref={moreButton}
            type="button"
            aria-expanded={moreOpen}
            aria-controls="quick-actions-more"
            onClick={() => setMoreOpen((open) => !open)}
            className={`${LINK} w-full gap-1 max-sm:hidden lg:w-auto`}
          >
            More<span className="sr-only"> actions</span>
            <span aria-hidden="true" className="text-concrete-500">
              {moreOpen ? '▲' : '▼'}
            </span>
          </button>
          <div
            id="quick-actions-more"
            className={`max-sm:contents ${moreOpen ? 'sm:flex' : 'sm:hidden'} sm:absolute sm:top-full sm:right-0 sm:z-20 sm:mt-2 sm:w-60 sm:flex-col sm:gap-2 sm:rounded-xl sm:border sm:border-concrete-200 sm:bg-white sm:p-2 sm:shadow-lg`}
          >
            <a className={LINK} href="/api/bookings" target="_blank" rel="noopener" onClick={() => setMoreOpen(false)}>
              View bookings data<span className="sr-only"> (opens in a new tab)</span>
            </a>
            <a className={LINK} href="/api/contacts" target="_blank" rel="noopener" onClick={() => setMoreOpen(false)}>
              View contacts data<span className="sr-only"> (opens in a new tab)</span>
            </a>
          </div>
        </div>
      </div>
    </section>
  );
}
