import { useEffect, useState } from 'react';
import { DATA_RETENTION } from '../../../content/privacy.ts';
import { analyticsEventLabel } from '../../../domain/analytics-events.ts';
import { showToast } from '../../shared/toast-store.ts';
import { DailyChart } from '../analytics/DailyChart.tsx';
import { fetchAnalyticsSummary, pageLabel, type AnalyticsSummary } from '../analytics/analytics-api.ts';
import { CountBars } from '../logs/CountBars.tsx';
import { StatCard } from '../logs/StatCard.tsx';

const ANALYTICS_RETENTION = DATA_RETENTION.find((row) => row.record === 'Analytics')?.period;

/** Page views and user events (admin-dashboard.md §2 "Analytics tab"). */
export default function AnalyticsTab() {
  const [summary, setSummary] = useState<AnalyticsSummary | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    fetchAnalyticsSummary(controller.signal)
      .then(setSummary)
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('Analytics summary failed', error);
        setFailed(true);
        // The server's error text is not shown in the dashboard (admin-dashboard.md §8).
        showToast({ title: 'Could not load analytics', description: 'Please try again in a moment.', variant: 'destructive' });
      });
    return () => controller.abort();
  }, []);

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <h2 className="text-2xl">Analytics</h2>
      {failed ? <p className="text-concrete-600">The analytics could not be loaded. Try again in a moment.</p> : null}
      <dl className="grid grid-cols-2 gap-2 sm:gap-3">
        <StatCard label="Total page views" value={summary?.totalPageViews} />
        <StatCard label="Page views, last 24 hours" value={summary?.pageViewsLast24Hours} />
      </dl>

      {summary ? <DailyChart days={summary.dailyPageViews} /> : null}

      <div className="grid gap-3 md:grid-cols-2 lg:grid-cols-4">
        <CountBars
          id="analytics-top-pages"
          title="Top pages (7 days)"
          empty="No page views in the last 7 days."
          items={summary?.topPages.map((row) => ({ label: pageLabel(row.path), count: row.count }))}
        />
        <CountBars
          id="analytics-top-countries"
          title="Top countries (7 days)"
          empty="No country data in the last 7 days."
          items={summary?.topCountries.map((row) => ({ label: row.country, count: row.count }))}
        />
        <CountBars
          id="analytics-top-cities"
          title="Top cities (7 days)"
          empty="No city data in the last 7 days."
          items={summary?.topCities.map((row) => ({ label: row.city, count: row.count }))}
        />
        <CountBars
          id="analytics-events"
          title="User events (24 hours)"
          empty="No user events in the last 24 hours."
          items={summary?.recentEvents.map((row) => ({ label: analyticsEventLabel(row.eventName), count: row.count }))}
        />
      </div>

      <aside aria-labelledby="analytics-about" className="rounded-[var(--radius-card)] border border-accent-100 bg-accent-50 p-5 text-sm text-concrete-800">
        <h3 id="analytics-about" className="text-base font-semibold text-ink">
          About this tracking
        </h3>
        <p className="mt-2">
          Each page view records the page path, the referring page, the browser type and, from the hosting platform's geo data, the visitor's country
          and city. The booking, payment, contact and tracking pages also record a few named events, such as a booking being started or sent.
        </p>
        <p className="mt-2">
          Staff are not counted: views of the dashboard and the crew pages, and pages viewed while signed in here, are not recorded.
        </p>
        <p className="mt-2">
          No cookies and no local storage are used for this, and no IP address is stored. Records are kept for{' '}
          {ANALYTICS_RETENTION ?? '26 months'}, as the <a href="/privacy" className="font-semibold text-accent-800 underline">privacy policy</a> says.
        </p>
      </aside>
    </div>
  );
}
