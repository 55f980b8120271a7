import { useEffect, useRef } from 'react';
import { BOOKING_CONFIRMATION_POINTS } from '../../content/process.ts';

// Step 5 of the form (public-site.md §2, §4): shown once the booking call succeeds, while the
// browser moves on to /checkout.

export function BookingConfirmation({ bookingId }: { bookingId: number | string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section aria-labelledby="booking-confirmed-heading" className="card mx-auto max-w-2xl p-7 text-center sm:p-10">
      <span className="mx-auto flex size-16 items-center justify-center rounded-full bg-accent-100 text-accent-800" aria-hidden="true">
        <svg width="32" height="32" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" strokeLinejoin="round">
          <path d="M5 12.5l4.5 4.5L19 7.5" />
        </svg>
      </span>
      <h2 id="booking-confirmed-heading" ref={heading} tabIndex={-1} className="mt-5 text-3xl focus:outline-none">
        Booking Confirmed!
      </h2>
      <p className="mt-3 text-lg text-concrete-700">
        Your booking reference is <strong className="text-ink">#{bookingId}</strong>. Taking you to secure payment…
      </p>
      <ul className="mx-auto mt-7 max-w-md space-y-3 text-left">
        {BOOKING_CONFIRMATION_POINTS.map((point) => (
          <li key={point} className="flex gap-3">
            <svg className="mt-0.5 shrink-0" width="22" height="22" viewBox="0 0 20 20" aria-hidden="true">
              <circle cx="10" cy="10" r="10" fill="#c8f2e2" />
              <path d="M6 10.4l2.6 2.6L14 7.6" stroke="#121614" strokeWidth="2" fill="none" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
            <span className="text-concrete-800">{point}</span>
          </li>
        ))}
      </ul>
      <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
        <a href="/checkout" className="btn-primary">
          Continue to Payment
        </a>
        <a href="/" className="btn-secondary">
          Return to Home
        </a>
      </div>
    </section>
  );
}
