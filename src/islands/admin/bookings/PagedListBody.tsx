import type { ReactNode } from 'react';
import { showToast } from '../../shared/toast-store.ts';
import type { usePagedList } from './use-paged-list.ts';
import { errorMessage } from '../../shared/api.ts';

type PagedList<T extends { id: number }> = ReturnType<typeof usePagedList<T>>;

interface PagedListBodyProps<T extends { id: number }> {
  list: PagedList<T>;
  /** Plural noun for the loading and error lines: 'bookings', 'enquiries'. */
  noun: string;
  empty: ReactNode;
  children: (items: T[]) => ReactNode;
}

/**
 * What every paged admin list shows below its header: loading, the error with a retry, the empty
 * text, the rows, and "Load more" (a failure to load more keeps the rows and says why in a toast).
 */
export function PagedListBody<T extends { id: number }>({ list, noun, empty, children }: PagedListBodyProps<T>) {
  const loadMore = () =>
    void list.loadMore().catch((error: unknown) =>
      showToast({ title: 'Loading Failed', description: errorMessage(error), variant: 'destructive' }),
    );
  return (
    <>
      {list.state === 'loading' && <p className="py-8 text-center text-concrete-600">Loading {noun}…</p>}
      {list.state === 'error' && (
        <div className="rounded-xl bg-danger-50 p-4 text-danger-600">
          <p>
            Could not load {noun}: {list.error}
          </p>
          <button type="button" className="btn-secondary mt-3" onClick={list.reload}>
            Try again
          </button>
        </div>
      )}
      {list.state === 'ready' && list.items.length === 0 && (
        <p className="rounded-[var(--radius-card)] border border-dashed border-concrete-300 p-8 text-center text-concrete-700">{empty}</p>
      )}
      {list.state === 'ready' && list.items.length > 0 && children(list.items)}
      {list.hasMore && list.state === 'ready' && (
        <div className="mt-4 text-center">
          <button type="button" className="btn-secondary" disabled={list.loadingMore} onClick={loadMore}>
            {list.loadingMore ? 'Loading…' : 'Load more'}
          </button>
        </div>
      )}
    </>
  );
}
