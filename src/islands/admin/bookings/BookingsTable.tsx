import { useState } from 'react';
import type { AdminBookingJson } from '../../../server/services/admin-bookings.ts';
import { formatDay, formatMoney } from './format.ts';
import { splitAddresses } from '../../../domain/booking-limits.ts';
import { BOOKING_STATUSES, statusLabel } from '../../../domain/project-steps.ts';
import { BookingMessagesButton } from '../messages/BookingMessages.tsx';

export type AdminBooking = AdminBookingJson;

/** admin-dashboard.md §2: the dropdown's four statuses, in the one map's words. */
export const STATUS_OPTIONS = BOOKING_STATUSES.map((value) => ({ value, label: statusLabel(value) }));

const MAX_ADDRESSES_SHOWN = 2;

const TH = 'px-3 py-2 text-left text-xs font-semibold tracking-wide text-concrete-600 uppercase whitespace-nowrap';
const TD = 'px-3 py-3 align-top';

/**
 * The Bookings tab's table (admin-dashboard.md §2). It scrolls sideways on a phone rather than
 * squeezing eight columns into 375 px; the customer column stays readable at the left.
 */
export function BookingsTable({
  bookings,
  label,
  onStatus,
  onArchive,
  onRestore,
}: {
  bookings: AdminBooking[];
  /** The view's name ('Active Projects'...), for the scrolling region. */
  label: string;
  onStatus: (booking: AdminBooking, status: string) => Promise<void>;
  onArchive: (booking: AdminBooking) => void;
  onRestore: (booking: AdminBooking) => Promise<void>;
}) {
  return (
    <div
      className="relative -mx-5 overflow-x-auto border-y border-concrete-100 bg-white sm:mx-0 sm:rounded-[var(--radius-card)] sm:border"
      role="region"
      aria-label={label}
      tabIndex={0}
    >
      <table className="w-full min-w-[64rem] text-sm">
        <thead className="border-b border-concrete-100 bg-concrete-50/60">
          <tr>
            {['Customer', 'Date Requested', 'Quantity', 'Total', 'Location', 'Status', 'Files', 'Actions'].map((heading) => (
              <th key={heading} scope="col" className={TH}>
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-concrete-100">
          {bookings.map((booking) => (
            <BookingRow key={booking.id} booking={booking} onStatus={onStatus} onArchive={onArchive} onRestore={onRestore} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function BookingRow({
  booking,
  onStatus,
  onArchive,
  onRestore,
}: {
  booking: AdminBooking;
  onStatus: (booking: AdminBooking, status: string) => Promise<void>;
  onArchive: (booking: AdminBooking) => void;
  onRestore: (booking: AdminBooking) => Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  const name = `${booking.firstName} ${booking.lastName}`;
  const addresses = splitAddresses(booking.locationAddress);
  const statusId = `booking-${booking.id}-status`;
  const knownStatus = STATUS_OPTIONS.some((option) => option.value === booking.status);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } finally {
      setBusy(false);
    }
  };

  return (
    <tr data-testid="booking-row" data-booking-id={booking.id}>
      <td className={TD}>
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-semibold text-ink">{name}</span>
          {booking.isTest && (
            <span className="rounded-full bg-warning-50 px-2 py-0.5 text-xs font-bold text-warning-700 ring-1 ring-warning-700/30">TEST</span>
          )}
        </div>
        <div className="text-concrete-600">#{booking.id}{booking.businessName ? ` · ${booking.businessName}` : ''}</div>
        <a className="block break-all underline decoration-concrete-300 hover:decoration-ink" href={`mailto:${booking.email}`}>
          {booking.email}
        </a>
        <a className="block underline decoration-concrete-300 hover:decoration-ink" href={`tel:${booking.phone.replace(/\s+/g, '')}`}>
          {booking.phone}
        </a>
      </td>
      <td className={`${TD} whitespace-nowrap`}>
        <div>{formatDay(booking.preferredDate)}</div>
        <div className="text-concrete-600 capitalize">{booking.workType} work</div>
      </td>
      <td className={TD}>{booking.quantity}</td>
      <td className={`${TD} whitespace-nowrap`}>{formatMoney(booking.totalPrice)}</td>
      <td className={`${TD} max-w-64`}>
        {addresses.slice(0, MAX_ADDRESSES_SHOWN).map((address) => (
          <div key={address} className="line-clamp-2">
            {address}
          </div>
        ))}
        {addresses.length > MAX_ADDRESSES_SHOWN && <div className="text-concrete-600">+{addresses.length - MAX_ADDRESSES_SHOWN} more</div>}
        {(booking.postcode || booking.region) && (
          <div className="text-concrete-600">{[booking.postcode, booking.region].filter(Boolean).join(' · ')}</div>
        )}
      </td>
      <td className={TD}>
        <label htmlFor={statusId} className="sr-only">
          Status of booking #{booking.id} ({name})
        </label>
        <select
          id={statusId}
          value={booking.status}
          disabled={busy}
          onChange={(event) => void run(() => onStatus(booking, event.target.value))}
          className="min-h-10 rounded-lg border border-concrete-300 bg-white px-2 py-1 text-sm"
        >
          {/* A project step's status (say, installation scheduled) is shown in words; staff cannot pick it here. */}
          {!knownStatus && (
            <option value={booking.status} disabled>
              {statusLabel(booking.status)}
            </option>
          )}
          {STATUS_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </td>
      <td className={TD}>
        {booking.uploadedFiles.length === 0 ? (
          <span className="text-concrete-600">None</span>
        ) : (
          <ul className="space-y-1">
            {booking.uploadedFiles.map((file) => (
              <li key={file.id}>
                <a className="break-all underline decoration-concrete-300 hover:decoration-ink" href={`/api/files/${encodeURIComponent(file.fileName)}`} download={file.originalName}>
                  {file.originalName}
                </a>
              </li>
            ))}
          </ul>
        )}
      </td>
      <td className={TD}>
        <BookingMessagesButton bookingId={booking.id} customer={name} />
        {booking.archived ? (
          <button
            type="button"
            className="btn-secondary min-h-10 px-3 py-1 text-sm"
            disabled={busy}
            aria-label={`Restore booking #${booking.id} (${name})`}
            onClick={() => void run(() => onRestore(booking))}
          >
            Restore
          </button>
        ) : (
          <button
            type="button"
            className="btn-secondary min-h-10 px-3 py-1 text-sm"
            disabled={busy}
            aria-label={`Archive booking #${booking.id} (${name})`}
            onClick={() => onArchive(booking)}
          >
            Archive
          </button>
        )}
      </td>
    </tr>
  );
}
