import { useCallback, useEffect, useRef, useState } from 'react';
import { adminApi as api } from '../admin-api.ts';
import { showToast } from '../../shared/toast-store.ts';
import { INPUT_CLASS, LABEL_CLASS } from '../../shared/FormField.tsx';
import { BookingsTable, type AdminBooking } from '../bookings/BookingsTable.tsx';
import { statusLabel } from '../../../domain/project-steps.ts';
import { SegmentedControl } from '../../shared/SegmentedControl.tsx';
import { ConfirmDialog } from '../bookings/ConfirmDialog.tsx';
import { AvailabilityPanel } from '../bookings/AvailabilityPanel.tsx';
import { usePagedList } from '../bookings/use-paged-list.ts';
import { PagedListBody } from '../bookings/PagedListBody.tsx';
import { errorMessage } from '../../shared/api.ts';

/** admin-dashboard.md §2 and §8: the archive question and the toasts, word for word. */
const ARCHIVE_QUESTION = 'Are you sure you want to archive this project? It will be moved to the archived projects section.';
const SEARCH_DELAY_MS = 300;


/** admin-dashboard.md §2: the filter's three values (active, archived, all). */
const VIEWS = [
  { value: 'active', label: 'Active Projects', query: 'false', noun: 'active', empty: 'No active projects found...' },
  { value: 'archived', label: 'Archived Projects', query: 'true', noun: 'archived', empty: 'No archived projects.' },
  { value: 'all', label: 'All Projects', query: '', noun: '', empty: 'No projects yet.' },
] as const;
type View = (typeof VIEWS)[number];

/** The Bookings tab: active, archived or all bookings, searchable, with status, archive and restore. */
export default function BookingsTab() {
  const [view, setView] = useState<View>(VIEWS[0]);
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const [toArchive, setToArchive] = useState<AdminBooking | null>(null);
  const [archiving, setArchiving] = useState(false);
  const searchRef = useRef<HTMLInputElement>(null);

  // Searching happens on the server (the list is paged); wait for a pause in typing.
  useEffect(() => {
    const timer = setTimeout(() => setQuery(search.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search]);

  const url = `/api/bookings?archived=${view.query}${query ? `&q=${encodeURIComponent(query)}` : ''}`;
  const list = usePagedList<AdminBooking>(url);

  const changeStatus = async (booking: AdminBooking, status: string) => {
    try {
      const updated = await api<AdminBooking>(`/api/bookings/${booking.id}/status`, { method: 'PATCH', body: { status } });
      list.replace(booking.id, updated);
      const label = statusLabel(status);
      showToast({ title: 'Status Updated', description: `Booking #${booking.id} is now ${label}.`, variant: 'success' });
    } catch (error) {
      showToast({ title: 'Update Failed', description: errorMessage(error), variant: 'destructive' });
    }
  };

  const archive = async () => {
    if (!toArchive) return;
    setArchiving(true);
    try {
      const updated = await api<AdminBooking>(`/api/bookings/${toArchive.id}/archive`, { method: 'PATCH' });
      // The 'all' view keeps the row (now archived); the others lose it.
      list.replace(toArchive.id, view.value === 'all' ? updated : null);
      showToast({ title: 'Project Archived', description: `Booking #${toArchive.id} moved to Archived Projects.`, variant: 'success' });
      setToArchive(null);
    } catch (error) {
      showToast({ title: 'Archive Failed', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setArchiving(false);
    }
  };

  const restore = async (booking: AdminBooking) => {
    try {
      const updated = await api<AdminBooking>(`/api/bookings/${booking.id}/unarchive`, { method: 'PATCH' });
      list.replace(booking.id, view.value === 'all' ? updated : null);
      showToast({ title: 'Project Restored', description: `Booking #${booking.id} is back in Active Projects.`, variant: 'success' });
    } catch (error) {
      showToast({ title: 'Restore Failed', description: errorMessage(error), variant: 'destructive' });
    }
  };

  const closeDialog = useCallback(() => setToArchive(null), []);
  const focusSearch = useCallback(() => searchRef.current, []);

  return (
    <div>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <SegmentedControl label="Which bookings" options={VIEWS} selected={view} onSelect={setView} />
        <div className="sm:w-80">
          <label htmlFor="bookings-search" className={LABEL_CLASS}>
            Search bookings
          </label>
          <input
            id="bookings-search"
            ref={searchRef}
            type="search"
            placeholder="Name, e-mail, business, postcode or #id"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            className={`mt-2 ${INPUT_CLASS}`}
          />
        </div>
      </div>

      <p className="mt-4 text-sm text-concrete-600" role="status">
        {list.state === 'ready' && list.total !== null
          ? `${list.total} ${view.noun ? `${view.noun} ` : ''}${list.total === 1 ? 'project' : 'projects'}${query ? ` matching “${query}”` : ''}`
          : ''}
      </p>

      <div className="mt-2">
        <PagedListBody
          list={list}
          noun="bookings"
          empty={query ? 'No bookings match your search.' : view.empty}
        >
          {(bookings) => <BookingsTable bookings={bookings} label={view.label} onStatus={changeStatus} onArchive={setToArchive} onRestore={restore} />}
        </PagedListBody>
      </div>

      <AvailabilityPanel />

      <ConfirmDialog
        open={toArchive !== null}
        title="Archive project?"
        message={ARCHIVE_QUESTION}
        confirmLabel="Archive"
        busy={archiving}
        onConfirm={() => void archive()}
        onClose={closeDialog}
        fallbackFocus={focusSearch}
      />
    </div>
  );
}
