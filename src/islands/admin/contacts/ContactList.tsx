import type { ContactEnquiryJson } from '../../../server/services/enquiries/admin-contacts.ts';
import { formatInstant } from '../bookings/format.ts';
import { EmailText } from '../../shared/EmailText.tsx';

export type ContactEnquiry = ContactEnquiryJson;

/**
 * One card per enquiry. The message is shown as text, never as HTML, with its own line breaks:
 * it is whatever a visitor typed.
 */
export function ContactList({ enquiries }: { enquiries: ContactEnquiry[] }) {
  return (
    <ul className="space-y-4" data-testid="contact-list">
      {enquiries.map((enquiry) => (
        <li key={enquiry.id} className="card p-4 sm:p-5" data-testid="contact-item">
          <div className="flex flex-wrap items-start justify-between gap-2">
            <h3 className="text-lg font-semibold">
              {enquiry.firstName} {enquiry.lastName}
            </h3>
            <span className="rounded-full bg-accent-50 px-3 py-1 text-xs font-semibold text-accent-800 ring-1 ring-accent-700/20">
              {enquiry.inquiryType}
            </span>
          </div>
          <div className="mt-1 flex flex-wrap items-center gap-x-4 text-sm">
            <a className="inline-flex min-h-11 min-w-0 items-center underline decoration-concrete-300 hover:decoration-ink" href={`mailto:${enquiry.email}`}>
              <EmailText email={enquiry.email} />
            </a>
            {enquiry.phone && (
              <a className="inline-flex min-h-11 items-center underline decoration-concrete-300 hover:decoration-ink" href={`tel:${enquiry.phone.replace(/\s+/g, '')}`}>
                {enquiry.phone}
              </a>
            )}
            <time className="text-concrete-600" dateTime={enquiry.createdAt}>
              {formatInstant(enquiry.createdAt)}
            </time>
          </div>
          <p className="mt-3 break-words whitespace-pre-wrap text-concrete-800">{enquiry.message}</p>
        </li>
      ))}
    </ul>
  );
}
