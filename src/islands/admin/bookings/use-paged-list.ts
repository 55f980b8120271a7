import { useCallback, useEffect, useRef, useState } from 'react';
import { adminApiPage as apiPage } from '../admin-api.ts';

export type ListState = 'loading' | 'ready' | 'error';

/**
 * A newest-first admin list read page by page ("Load more"), for the Bookings and Contacts tabs.
 * A new `url` starts again from the first page; answers to an older url are dropped.
 */
export function usePagedList<T extends { id: number }>(url: string) {
  const [items, setItems] = useState<T[]>([]);
  const [total, setTotal] = useState<number | null>(null);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [state, setState] = useState<ListState>('loading');
  const [error, setError] = useState('');
  const [loadingMore, setLoadingMore] = useState(false);
  const generation = useRef(0);

  const load = useCallback(
    async (cursor: string | null) => {
      const mine = generation.current;
      const separator = url.includes('?') ? '&' : '?';
      try {
        const page = await apiPage<T>(cursor ? `${url}${separator}cursor=${encodeURIComponent(cursor)}` : url);
        if (mine !== generation.current) return;
        setItems((current) => (cursor ? [...current, ...page.items.filter((item) => !current.some((c) => c.id === item.id))] : page.items));
        setTotal(page.total);
        setNextCursor(page.nextCursor);
        setState('ready');
      } catch (failure) {
        if (mine !== generation.current) return;
        setError(failure instanceof Error ? failure.message : String(failure));
        if (!cursor) setState('error');
        throw failure;
      }
    },
    [url],
  );

  const reload = useCallback(() => {
    generation.current += 1;
    setState('loading');
    setNextCursor(null);
    load(null).catch(() => undefined);
  }, [load]);

  useEffect(reload, [reload]);

  const loadMore = useCallback(async () => {
    if (!nextCursor) return;
    setLoadingMore(true);
    try {
      await load(nextCursor);
    } finally {
      setLoadingMore(false);
    }
  }, [load, nextCursor]);

  /** Puts a changed row in place, or takes it out of this list (it moved to the other one). */
  const replace = useCallback((id: number, next: T | null) => {
    setItems((current) => (next ? current.map((item) => (item.id === id ? next : item)) : current.filter((item) => item.id !== id)));
    if (!next) setTotal((count) => (count === null ? count : Math.max(0, count - 1)));
  }, []);

  return { items, total, state, error, hasMore: nextCursor !== null, loadingMore, loadMore, reload, replace };
}
