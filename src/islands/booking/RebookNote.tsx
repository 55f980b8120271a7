import { useEffect, useState } from 'react';
import { api } from '../shared/api.ts';
import { prefillFromBooking, rebookIdFrom, type RebookData } from './booking-store.ts';

// "Book again" from the tracking page (api.md "Documents for business customers"): the form opens
// with the earlier booking's details filled in and a new date to choose.

export type Rebooked = { id: number; files: number } | { loading: number } | { failed: true } | null;

/** Fills the form from `/booking?rebook=N` once, and says how that went. */
export function useRebook(): Rebooked {
  const [rebooked, setRebooked] = useState<Rebooked>(null);
  useEffect(() => {
    const id = rebookIdFrom(window.location.search);
    if (id === null) return;
    setRebooked({ loading: id });
    api<RebookData>(`/api/bookings/${id}/rebook`, { cache: 'no-store' })
      .then((data) => {
        prefillFromBooking(id, data);
        setRebooked({ id, files: data.uploadedFiles.length });
      })
      .catch(() => setRebooked({ failed: true }));
  }, []);
  return rebooked;
}

export function RebookNote({ rebooked }: { rebooked: Rebooked }) {
  if (!rebooked) return null;
  return (
    <p role="status" data-testid="rebook-note" className="mb-6 rounded-xl border border-concrete-100 bg-concrete-50 px-4 py-3 text-concrete-700">
      {'loading' in rebooked
        ? `Filling in your details from booking #${rebooked.loading}…`
        : 'id' in rebooked
        ? rebooked.files > 0
          ? `Your details, brand files and locations from booking #${rebooked.id} are filled in. Choose a date for the new campaign and check the rest before you book.`
          : `Your details and locations from booking #${rebooked.id} are filled in. Choose a date for the new campaign, add your brand files, and check the rest before you book.`
        : 'We could not fill in your earlier booking. Track it again and choose Book again, or fill in the form below.'}
    </p>
  );
}
