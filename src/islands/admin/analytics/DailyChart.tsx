import type { DayCount } from '../../../domain/analytics-summary.ts';
import { formatCount } from '../logs/StatCard.tsx';

const SHORT_DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const LONG_DAY = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

// The dates are London calendar days; read at noon UTC they format as the same day.
const asDate = (isoDay: string) => new Date(`${isoDay}T12:00:00Z`);
export const shortDay = (isoDay: string) => SHORT_DAY.format(asDate(isoDay));
export const longDay = (isoDay: string) => LONG_DAY.format(asDate(isoDay));

// Pixel heights, percentage widths: the chart fills any width while its text stays at a readable
// size (a scaled viewBox would shrink the labels to nothing on a phone).
const HEIGHT = 200;
const PLOT_TOP = 18;
const PLOT_BOTTOM = 176;

/** Rounds the axis top up to a friendly number (1, 2, 5 × 10ⁿ) so the scale reads at a glance. */
export function niceMax(value: number): number {
  if (value <= 5) return 5;
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 5, 10].find((factor) => factor * power >= value)!;
  return step * power;
}

/**
 * Daily page views as an inline SVG bar chart: no chart library for thirty bars. The SVG is one
 * image with a title and a description for screen readers, and the exact numbers are in a
 * visually hidden table beside it.
 */
export function DailyChart({ days }: { days: DayCount[] }) {
  const max = niceMax(Math.max(0, ...days.map((day) => day.count)));
  const total = days.reduce((sum, day) => sum + day.count, 0);
  const busiest = days.reduce<DayCount | undefined>((best, day) => (!best || day.count > best.count ? day : best), undefined);
  const slot = 100 / Math.max(1, days.length);
  const y = (count: number) => PLOT_BOTTOM - (count / max) * (PLOT_BOTTOM - PLOT_TOP);
  const first = days[0];
  const last = days.at(-1);
  const description =
    first && last
      ? `${formatCount(total)} page views from ${longDay(first.date)} to ${longDay(last.date)}.` +
        (busiest && busiest.count > 0 ? ` Busiest day: ${longDay(busiest.date)} with ${formatCount(busiest.count)}.` : ' No page views in this period.')
      : 'No data.';

  return (
    <figure className="card p-4">
      <figcaption className="text-base font-semibold" id="daily-chart-caption">
        Daily page views, last 30 days
      </figcaption>
      <svg width="100%" height={HEIGHT} role="img" aria-labelledby="daily-chart-title daily-chart-desc" className="mt-3 block" data-testid="daily-chart">
        <title id="daily-chart-title">Daily page views, last 30 days</title>
        <desc id="daily-chart-desc">{description}</desc>
        {[0, max / 2, max].map((tick) => (
          <g key={tick}>
            <line x1="0" x2="100%" y1={y(tick)} y2={y(tick)} stroke="var(--color-concrete-200)" strokeWidth={1} />
            {tick > 0 ? (
              <text x="0" y={y(tick) - 4} fontSize={12} fill="var(--color-concrete-600)">
                {formatCount(tick)}
              </text>
            ) : null}
          </g>
        ))}
        {days.map((day, index) => {
          const top = y(day.count);
          return (
            <rect key={day.date} x={`${index * slot + slot * 0.15}%`} y={top} width={`${slot * 0.7}%`} height={Math.max(0, PLOT_BOTTOM - top)} rx={2} fill="var(--color-accent-500)">
              <title>{`${longDay(day.date)}: ${formatCount(day.count)}`}</title>
            </rect>
          );
        })}
        {days.map((day, index) =>
          // Today and every seventh day before it: few enough labels to stay apart on a phone.
          (days.length - 1 - index) % 7 === 0 ? (
            <text
              key={`label-${day.date}`}
              x={index === days.length - 1 ? '100%' : `${index * slot + (index < 2 ? 0 : slot / 2)}%`}
              y={HEIGHT - 6}
              textAnchor={index === days.length - 1 ? 'end' : index < 2 ? 'start' : 'middle'}
              fontSize={12}
              fill="var(--color-concrete-600)"
            >
              {shortDay(day.date)}
            </text>
          ) : null,
        )}
      </svg>
      <table className="sr-only">
        <caption>Page views per day, last 30 days</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Page views</th>
          </tr>
        </thead>
        <tbody>
          {days.map((day) => (
            <tr key={day.date}>
              <th scope="row">{longDay(day.date)}</th>
              <td>{day.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
