import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { adminApi } from '../admin-api.ts';
import { $statsChanged, markStatsStale } from './stats-store.ts';

interface DashboardStats {
  totalBookings: number;
  pendingBookings: number;
  completedBookings: number;
  totalRevenue: number;
}

const pounds = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });
// The phone's one-line summary rounds to whole pounds so the revenue is never the part cut off;
// the cards it opens give the pence.
const wholePounds = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP', maximumFractionDigits: 0 });

/**
 * The four stat cards (admin-dashboard.md §2): four across when wide. On a phone they fold into
 * one line that opens them two by two, so each tab's own content starts near the top.
 */
export function StatCards() {
  const [stats, setStats] = useState<DashboardStats | null>(null);
  const [failed, setFailed] = useState(false);
  const [isOpen, setIsOpen] = useState(false);

  const changed = useStore($statsChanged);

  // Fetched on opening and again after every change the dashboard makes; the last answer wins.
  useEffect(() => {
    let isCurrent = true;
    adminApi<DashboardStats>('/api/admin/stats')
      .then((next) => {
        if (!isCurrent) return;
        setStats(next);
        setFailed(false);
      })
      .catch(() => {
        if (isCurrent) setFailed(true);
      });
    return () => {
      isCurrent = false;
    };
  }, [changed]);

  const cards: [string, string | null][] = [
    ['Total Bookings', stats ? String(stats.totalBookings) : null],
    ['Pending Review', stats ? String(stats.pendingBookings) : null],
    ['Completed Jobs', stats ? String(stats.completedBookings) : null],
    ['Total Revenue', stats ? pounds.format(stats.totalRevenue) : null],
  ];

  return (
    <section aria-label="Summary" className="mt-3 sm:mt-4">
      <button
        type="button"
        aria-expanded={isOpen}
        aria-controls="stat-cards"
        onClick={() => setIsOpen((open) => !open)}
        className="flex min-h-11 w-full items-center justify-between gap-2 rounded-xl border border-concrete-200 bg-white px-3 text-left text-sm sm:hidden"
      >
        <span className="min-w-0 truncate">
          <span className="font-semibold text-ink">Totals</span>
          <span className="text-concrete-600">
            {stats ? ` · ${stats.totalBookings} bookings · ${stats.pendingBookings} pending · ${wholePounds.format(stats.totalRevenue)}` : ''}
          </span>
        </span>
        <span aria-hidden="true" className="shrink-0 text-concrete-500">
          {isOpen ? '▲' : '▼'}
        </span>
      </button>
      <dl id="stat-cards" className={`${isOpen ? 'mt-3 grid' : 'hidden'} grid-cols-2 gap-3 sm:mt-0 sm:grid lg:grid-cols-4 lg:gap-4`}>
        {cards.map(([label, value]) => (
          <div key={label} className="card p-4 sm:px-4 sm:py-3" data-testid="stat-card">
            <dt className="text-sm font-semibold text-concrete-600">{label}</dt>
            <dd className="mt-1 text-2xl font-bold tabular-nums text-ink">
              {value ?? (failed ? '–' : <span className="text-concrete-400">…</span>)}
            </dd>
          </div>
        ))}
      </dl>
      {failed && (
        <div className="mt-2 flex flex-wrap items-center gap-3 text-sm text-concrete-600">
          <p role="status">The figures could not be loaded.</p>
          {/* Asks again the way a change does, without reloading the dashboard. */}
          <button type="button" className="btn-secondary min-h-11 px-3 py-1 text-sm" onClick={markStatsStale}>
            Try again
          </button>
        </div>
      )}
    </section>
  );
}
