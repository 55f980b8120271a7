import { useEffect, useState } from 'react';
import { $checking, CHECKING_LABEL } from '../shared/challenge.ts';
import { HOLD_NOTICE } from '../../domain/booking-limits.ts';
import { useStore } from '@nanostores/react';
import { $locations, $summary, joinAddresses } from './booking-store.ts';

// The sticky Booking Summary (public-site.md §2): patches, work type, date, location and total,
// updated as the person fills the form. The price is for display; the server sets the real one.

export function BookingSummaryPanel({ isSubmitting }: { isSubmitting: boolean }) {
  const summary = useStore($summary);
  const locations = useStore($locations);
  const addresses = joinAddresses(locations);
  const isChecking = useStore($checking);
  return (
    <section id="booking-summary" aria-labelledby="booking-summary-heading" tabIndex={-1} className="card scroll-mt-24 p-6 focus:outline-none">
      <h2 id="booking-summary-heading" className="text-xl">
        Booking Summary
      </h2>
      <dl className="mt-5 space-y-3 text-[0.95rem]" data-testid="booking-summary">
        <SummaryRow term="Patches" value={summary.patches} />
        <SummaryRow term="Work type" value={summary.workType} />
        <SummaryRow term="Date" value={summary.date} />
        <SummaryRow term="Location" value={summary.location} />
        {addresses && (
          <div>
            <dt className="sr-only">Addresses</dt>
            <dd className="line-clamp-3 text-sm break-words text-concrete-600">{addresses}</dd>
          </div>
        )}
      </dl>
      <div className="mt-5 flex items-end justify-between gap-4 border-t border-concrete-100 pt-5">
        <div>
          <p className="font-semibold" id="booking-total-label">
            Total
          </p>
          {summary.nightSurcharge && <p className="text-sm text-concrete-600">{summary.nightSurcharge}</p>}
        </div>
        <p className="text-3xl font-bold tracking-tight" aria-describedby="booking-total-label" data-testid="booking-total">
          {summary.total}
        </p>
      </div>
      <button type="submit" className="btn-primary mt-6 w-full disabled:cursor-wait disabled:opacity-70" disabled={isSubmitting}>
        {isSubmitting ? (isChecking ? CHECKING_LABEL : 'Submitting...') : 'Proceed to Payment'}
      </button>
      <p className="mt-3 flex items-center justify-center gap-2 text-sm text-concrete-600">
        <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
          <rect x="4.5" y="10.5" width="15" height="10" rx="2" />
          <path d="M8 10.5V7.5a4 4 0 0 1 8 0v3" />
        </svg>
        Secure card payment on the next step
      </p>
      <p className="mt-1 text-center text-sm text-concrete-600">{HOLD_NOTICE}</p>
    </section>
  );
}

function SummaryRow({ term, value }: { term: string; value: string }) {
  return (
    <div className="flex items-baseline justify-between gap-4">
      <dt className="text-concrete-600">{term}</dt>
      <dd className="text-right font-semibold">{value}</dd>
    </div>
  );
}

/**
 * Phones: the total stays in view while scrolling the form (shared/design.md "Forms"), until
 * the full summary itself comes into view.
 */
export function MobileTotalBar() {
  const summary = useStore($summary);
  const [isSummaryBelow, setIsSummaryBelow] = useState(true);

  useEffect(() => {
    const panel = document.getElementById('booking-summary');
    if (!panel || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(([entry]) => {
      if (entry) setIsSummaryBelow(!entry.isIntersecting && entry.boundingClientRect.top > 0);
    });
    observer.observe(panel);
    return () => observer.disconnect();
  }, []);

  return (
    <div
      className={`fixed inset-x-0 bottom-0 z-30 border-t border-concrete-200 bg-paper/95 px-5 py-3 backdrop-blur lg:hidden ${
        isSummaryBelow ? '' : 'hidden'
      }`}
    >
      <div className="mx-auto flex max-w-xl items-center justify-between gap-4">
        <p className="leading-tight">
          <span className="block text-sm text-concrete-600">Total · {summary.patches}</span>
          <span className="text-xl font-bold">{summary.total}</span>
        </p>
        <a href="#booking-summary" className="btn-primary px-5 text-sm">
          Review booking
        </a>
      </div>
    </div>
  );
}
