import { ContactList, type ContactEnquiry } from '../contacts/ContactList.tsx';
import { usePagedList } from '../bookings/use-paged-list.ts';
import { PagedListBody } from '../bookings/PagedListBody.tsx';
import { PrivacyRequests } from '../contacts/PrivacyRequests.tsx';

/** The Contacts tab: enquiries from the public form, newest first (admin-dashboard.md §2). */
export default function ContactsTab() {
  const list = usePagedList<ContactEnquiry>('/api/contacts');
  return (
    <div>
      <h2 className="text-xl">Enquiries</h2>
      <p className="mt-1 text-sm text-concrete-600" role="status">
        {list.state === 'ready' && list.total !== null ? `${list.total} ${list.total === 1 ? 'enquiry' : 'enquiries'}, newest first` : ''}
      </p>
      <div className="mt-4">
        <PagedListBody list={list} noun="enquiries" empty="No enquiries yet. Messages sent from the contact form will appear here.">
          {(enquiries) => <ContactList enquiries={enquiries} />}
        </PagedListBody>
      </div>
      <PrivacyRequests />
    </div>
  );
}
