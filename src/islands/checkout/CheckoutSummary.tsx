import type { ReactNode } from 'react';
import { formatLongDate, isIsoDate } from '../../domain/format.ts';
import { formatPounds } from '../../domain/pricing.ts';
import { WORK_TYPE_LABEL, serviceName, type PendingBooking } from './pending-booking.ts';

/** What is being paid for, from the booking the form stored; the total is the server's. */
export function CheckoutSummary({ booking, amountPence }: { booking: PendingBooking; amountPence: number }) {
  const date = isIsoDate(booking.preferredDate) ? formatLongDate(booking.preferredDate) : booking.preferredDate || '—';
  return (
    <section aria-labelledby="summary-heading" className="card p-6 sm:p-8 lg:sticky lg:top-28">
      <p className="eyebrow">Booking summary</p>
      <h2 id="summary-heading" className="mt-2 text-2xl">
        {serviceName(booking.quantity)}
      </h2>
      <dl className="mt-5 divide-y divide-concrete-100 border-y border-concrete-100">
        <SummaryRow label="Booking ID">#{String(booking.bookingId)}</SummaryRow>
        <SummaryRow label="Patches">{booking.quantity}</SummaryRow>
        <SummaryRow label="Work type">{WORK_TYPE_LABEL[booking.workType]}</SummaryRow>
        <SummaryRow label="Date">{date}</SummaryRow>
        <SummaryRow label="Location" stacked>
          {booking.locationAddress || '—'}
        </SummaryRow>
      </dl>
      <div className="mt-5 flex items-baseline justify-between gap-4">
        <span className="text-lg font-semibold">Total</span>
        <span className="text-3xl font-semibold tracking-tight" data-testid="checkout-total">
          {formatPounds(amountPence)}
        </span>
      </div>
    </section>
  );
}

function SummaryRow({ label, stacked = false, children }: { label: string; stacked?: boolean; children: ReactNode }) {
  return (
    <div className={stacked ? 'py-3' : 'flex items-baseline justify-between gap-4 py-3'}>
      <dt className="text-concrete-600">{label}</dt>
      <dd className={stacked ? 'mt-1 break-words text-ink' : 'text-right font-semibold text-ink'}>{children}</dd>
    </div>
  );
}
