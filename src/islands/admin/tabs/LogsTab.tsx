import { useCallback, useEffect, useRef, useState } from 'react';
import { showToast } from '../../shared/toast-store.ts';
import { CountBars } from '../logs/CountBars.tsx';
import { LogFilters } from '../logs/LogFilters.tsx';
import { LogTable } from '../logs/LogTable.tsx';
import { StatCard } from '../logs/StatCard.tsx';
import { fetchLogs, fetchLogStats, NO_FILTERS, type ChannelLog, type ChannelLogStats, type LogFilters as Filters } from '../logs/log-api.ts';

const LOAD_FAILED = 'Could not load logs';
// The server's error text is not shown in the dashboard (admin-dashboard.md §8).
const LOAD_FAILED_TEXT = 'Please try again in a moment.';

type ListState = { state: 'loading' } | { state: 'failed' } | { state: 'ready'; logs: ChannelLog[]; nextCursor: string | null };

/** Channel activity logs with their stats (admin-dashboard.md §2 "Logs tab"). */
export default function LogsTab() {
  const [stats, setStats] = useState<ChannelLogStats | null>(null);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [list, setList] = useState<ListState>({ state: 'loading' });
  const [isLoadingMore, setIsLoadingMore] = useState(false);
  // Only the newest request may write the list: a slow earlier answer is dropped.
  const generation = useRef(0);

  useEffect(() => {
    const controller = new AbortController();
    fetchLogStats(controller.signal)
      .then(setStats)
      .catch((error: unknown) => {
        if (!controller.signal.aborted) console.error('Log stats failed', error);
      });
    return () => controller.abort();
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    const mine = ++generation.current;
    setList({ state: 'loading' });
    fetchLogs(filters, null, controller.signal)
      .then(({ items: data, nextCursor }) => {
        if (mine === generation.current) setList({ state: 'ready', logs: data, nextCursor });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('Logs failed', error);
        setList({ state: 'failed' });
        showToast({ title: LOAD_FAILED, description: LOAD_FAILED_TEXT, variant: 'destructive' });
      });
    return () => controller.abort();
  }, [filters]);

  const loadMore = useCallback(async () => {
    if (list.state !== 'ready' || !list.nextCursor) return;
    const mine = generation.current;
    setIsLoadingMore(true);
    try {
      const { items: data, nextCursor } = await fetchLogs(filters, list.nextCursor);
      if (mine === generation.current) setList({ state: 'ready', logs: [...list.logs, ...data], nextCursor });
    } catch (error) {
      console.error('More logs failed', error);
      showToast({ title: LOAD_FAILED, description: LOAD_FAILED_TEXT, variant: 'destructive' });
    } finally {
      setIsLoadingMore(false);
    }
  }, [filters, list]);

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <h2 className="text-2xl">Logs</h2>
      <dl className="grid grid-cols-3 gap-2 sm:gap-3">
        <StatCard label="Total logs" value={stats?.totalLogs} />
        <StatCard label="Last 24 hours" value={stats?.logsLast24Hours} />
        <StatCard label="Last 7 days" value={stats?.logsLast7Days} />
      </dl>
      <div className="grid gap-3 md:grid-cols-2">
        <CountBars id="logs-top-channels" title="Top channels" empty="No logs yet." items={stats?.topChannels.map((row) => ({ label: row.channel, count: row.count }))} />
        <CountBars
          id="logs-severities"
          title="Severity distribution"
          empty="No logs yet."
          items={stats?.severityDistribution.map((row) => ({ label: row.severity, count: row.count }))}
        />
      </div>

      <LogFilters value={filters} onChange={setFilters} />

      <section aria-labelledby="logs-list-heading" aria-busy={list.state === 'loading'} className="grid grid-cols-[minmax(0,1fr)] gap-3">
        <h3 id="logs-list-heading" className="text-lg font-semibold">
          Activity, newest first
        </h3>
        {list.state === 'loading' ? (
          <p className="text-concrete-600" role="status">
            Loading logs…
          </p>
        ) : list.state === 'failed' ? (
          <p className="text-concrete-600">The logs could not be loaded. Try again in a moment.</p>
        ) : list.logs.length === 0 ? (
          <p className="rounded-[var(--radius-card)] border border-dashed border-concrete-300 p-8 text-center text-concrete-700" role="status">
            No logs matching these filters.
          </p>
        ) : (
          <>
            <p className="text-sm text-concrete-600" role="status">
              Showing {list.logs.length} {list.logs.length === 1 ? 'log' : 'logs'}
              {list.nextCursor ? ' (more available)' : ''}.
            </p>
            <LogTable logs={list.logs} />
            {list.nextCursor ? (
              <div>
                <button type="button" className="btn-secondary" onClick={() => void loadMore()} disabled={isLoadingMore}>
                  {isLoadingMore ? 'Loading…' : 'Load more'}
                </button>
              </div>
            ) : null}
          </>
        )}
      </section>
    </div>
  );
}
