import { showToast } from '../../shared/toast-store.ts';
import { ContactList, type ContactEnquiry } from '../contacts/ContactList.tsx';
import { usePagedList } from '../bookings/use-paged-list.ts';
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
        {list.state === 'loading' && <p className="py-8 text-center text-concrete-600">Loading enquiries…</p>}
        {list.state === 'error' && (
          <div className="rounded-xl bg-danger-50 p-4 text-danger-600">
            <p>Could not load enquiries: {list.error}</p>
            <button type="button" className="btn-secondary mt-3" onClick={list.reload}>
              Try again
            </button>
          </div>
        )}
        {list.state === 'ready' && list.items.length === 0 && (
          <p className="rounded-[var(--radius-card)] border border-dashed border-concrete-300 p-8 text-center text-concrete-700">
            No enquiries yet. Messages sent from the contact form will appear here.
          </p>
        )}
        {list.state === 'ready' && list.items.length > 0 && <ContactList enquiries={list.items} />}
        {list.hasMore && list.state === 'ready' && (
          <div className="mt-4 text-center">
            <button
              type="button"
              className="btn-secondary"
              disabled={list.loadingMore}
              onClick={() => void list.loadMore().catch((error) => showToast({ title: 'Loading Failed', description: error instanceof Error ? error.message : String(error), variant: 'destructive' }))}
            >
              {list.loadingMore ? 'Loading…' : 'Load more'}
            </button>
          </div>
        )}
      </div>
      <PrivacyRequests />
    </div>
  );
}
