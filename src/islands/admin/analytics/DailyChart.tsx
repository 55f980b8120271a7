import { formatCount } from '../logs/StatCard.tsx';

export interface DayCount {
  date: string;
  count: number;
}

const SHORT_DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const LONG_DAY = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

// The dates are London calendar days; read at noon UTC they format as the same day.
const asDate = (isoDay: string) => new Date(`${isoDay}T12:00:00Z`);
export const shortDay = (isoDay: string) => SHORT_DAY.format(asDate(isoDay));
export const longDay = (isoDay: string) => LONG_DAY.format(asDate(isoDay));

const WIDTH = 600;
const HEIGHT = 200;
const PAD = { top: 12, right: 8, bottom: 24, left: 36 };

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
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotWidth / Math.max(1, days.length);
  const barWidth = Math.max(2, slot * 0.7);
  const y = (count: number) => PAD.top + plotHeight - (count / max) * plotHeight;
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
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby="daily-chart-title daily-chart-desc" className="mt-3 h-auto w-full" data-testid="daily-chart">
        <title id="daily-chart-title">Daily page views, last 30 days</title>
        <desc id="daily-chart-desc">{description}</desc>
        {[0, max / 2, max].map((tick) => (
          <g key={tick}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} stroke="var(--color-concrete-200)" strokeWidth={1} />
            <text x={PAD.left - 6} y={y(tick) + 4} textAnchor="end" fontSize={11} fill="var(--color-concrete-600)">
              {formatCount(tick)}
            </text>
          </g>
        ))}
        {days.map((day, index) => {
          const top = y(day.count);
          return (
            <rect
              key={day.date}
              x={PAD.left + index * slot + (slot - barWidth) / 2}
              y={top}
              width={barWidth}
              height={Math.max(0, PAD.top + plotHeight - top)}
              rx={2}
              fill="var(--color-accent-500)"
            >
              <title>{`${longDay(day.date)}: ${formatCount(day.count)}`}</title>
            </rect>
          );
        })}
        {days.map((day, index) =>
          // A label every seventh day (and the last) keeps the axis readable on a phone.
          index % 7 === 0 || index === days.length - 1 ? (
            <text key={`label-${day.date}`} x={PAD.left + index * slot + slot / 2} y={HEIGHT - 6} textAnchor="middle" fontSize={11} fill="var(--color-concrete-600)">
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
