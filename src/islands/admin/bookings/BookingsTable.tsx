import { useState } from 'react';
import type { AdminBookingJson } from '../../../server/services/bookings/admin-bookings.ts';
import { formatDay, formatMoney } from './format.ts';
import { splitAddresses } from '../../../domain/booking-limits.ts';
import { BOOKING_STATUSES, statusLabel } from '../../../domain/project-steps.ts';
import { BookingMessagesButton } from '../messages/BookingMessages.tsx';
import { EmailText } from '../../shared/EmailText.tsx';
import { useCanChange } from '../staff-user.ts';

export type AdminBooking = AdminBookingJson;

/** admin-dashboard.md §2: the dropdown's four statuses, in the one map's words. */
export const STATUS_OPTIONS = BOOKING_STATUSES.map((value) => ({ value, label: statusLabel(value) }));

const MAX_ADDRESSES_SHOWN = 2;

const TH = 'px-3 py-2 text-left text-xs font-semibold tracking-wide text-concrete-600 uppercase whitespace-nowrap';
const TD = 'px-3 py-3 align-top max-lg:block max-lg:py-2';
/** Below 1024 px each row is a card and each cell shows its column's name above its value. */
const LABELLED =
  'max-lg:before:mb-0.5 max-lg:before:block max-lg:before:text-xs max-lg:before:font-semibold max-lg:before:tracking-wide max-lg:before:text-concrete-600 max-lg:before:uppercase max-lg:before:content-[attr(data-label)]';
const WIDE = 'max-lg:col-span-2';

/**
 * The Bookings tab's table (admin-dashboard.md §2): eight columns from 1024 px; below that each
 * booking is a card with its status and actions in reach, so a phone never scrolls sideways.
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
      className="relative lg:overflow-x-auto lg:rounded-[var(--radius-card)] lg:border lg:border-concrete-100 lg:bg-white"
      role="region"
      aria-label={label}
      tabIndex={0}
    >
      <table className="w-full text-sm max-lg:block lg:min-w-[64rem]">
        <thead className="border-b border-concrete-100 bg-concrete-50/60 max-lg:sr-only">
          <tr>
            {['Customer', 'Date Requested', 'Quantity', 'Total', 'Location', 'Status', 'Files', 'Actions'].map((heading) => (
              <th key={heading} scope="col" className={TH}>
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="max-lg:block max-lg:space-y-3 lg:divide-y lg:divide-concrete-100">
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
  const canChange = useCanChange();
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
    <tr
      data-testid="booking-row"
      data-booking-id={booking.id}
      className="max-lg:grid max-lg:grid-cols-2 max-lg:gap-x-2 max-lg:rounded-[var(--radius-card)] max-lg:border max-lg:border-concrete-200 max-lg:bg-white max-lg:py-1"
    >
      <td className={`${TD} ${WIDE}`}>
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-semibold text-ink">{name}</span>
          {booking.isTest && (
            <span className="rounded-full bg-warning-50 px-2 py-0.5 text-xs font-bold text-warning-700 ring-1 ring-warning-700/30">TEST</span>
          )}
        </div>
        <div className="text-concrete-600">#{booking.id}{booking.businessName ? ` · ${booking.businessName}` : ''}</div>
        <a className="block underline decoration-concrete-300 hover:decoration-ink" href={`mailto:${booking.email}`}>
          <EmailText email={booking.email} />
        </a>
        <a className="block underline decoration-concrete-300 hover:decoration-ink" href={`tel:${booking.phone.replace(/\s+/g, '')}`}>
          {booking.phone}
        </a>
      </td>
      <td className={`${TD} ${LABELLED} ${WIDE} whitespace-nowrap`} data-label="Date requested">
        <div>{formatDay(booking.preferredDate)}</div>
        <div className="text-concrete-600 capitalize">{booking.workType} work</div>
      </td>
      <td className={`${TD} ${LABELLED}`} data-label="Quantity">
        {booking.quantity}
      </td>
      <td className={`${TD} ${LABELLED} whitespace-nowrap`} data-label="Total">
        {formatMoney(booking.totalPrice)}
      </td>
      <td className={`${TD} ${LABELLED} ${WIDE} lg:max-w-64`} data-label="Location">
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
      <td className={`${TD} ${LABELLED}`} data-label="Status">
        <label htmlFor={statusId} className="sr-only">
          Status of booking #{booking.id} ({name})
        </label>
        <select
          id={statusId}
          value={booking.status}
          disabled={busy || !canChange}
          onChange={(event) => void run(() => onStatus(booking, event.target.value))}
          className="min-h-11 w-full rounded-lg border border-concrete-300 bg-white px-2 py-1 text-base lg:w-auto lg:text-sm"
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
      <td className={`${TD} ${LABELLED} max-lg:order-last ${WIDE}`} data-label="Files">
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
      <td className={`${TD} ${LABELLED} max-lg:self-end`} data-label="Actions">
        <BookingMessagesButton bookingId={booking.id} customer={name} />
        {booking.archived ? (
          <button
            type="button"
            data-change
            className="btn-secondary min-h-11 px-4 py-1 text-sm max-lg:w-full"
            disabled={busy}
            aria-label={`Restore booking #${booking.id} (${name})`}
            onClick={() => void run(() => onRestore(booking))}
          >
            Restore
          </button>
        ) : (
          <button
            type="button"
            data-change
            className="btn-secondary min-h-11 px-4 py-1 text-sm max-lg:w-full"
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
