import { formatLongDate } from '../../../domain/format.ts';
import { londonDate } from '../../../domain/schedule.ts';
import { isAtRisk, rainChance, type ScheduleDay } from './schedule-types.ts';

/**
 * One day as a button: booked and paid patches against its capacity, why it is closed, the rain
 * forecast and whether work is at risk. `compact` is the month grid's cell; otherwise an agenda row.
 */
export function DaySummary({ day, compact = false, selected, onOpen }: { day: ScheduleDay; compact?: boolean; selected: boolean; onOpen: () => void }) {
  const chance = rainChance(day);
  const atRisk = isAtRisk(day);
  const full = !day.closed && day.capacity > 0 && day.held >= day.capacity;
  // Today stands out and past days recede, as in any calendar: work is planned forwards.
  const today = londonDate(new Date());
  const isToday = day.date === today;
  const isPast = day.date < today;
  const tone = day.closed ? 'bg-concrete-100' : full ? 'bg-warning-50' : isPast ? 'bg-concrete-50' : 'bg-white';
  const edge = selected ? 'border-ink ring-2 ring-ink' : isToday ? 'border-accent-700 ring-1 ring-accent-700' : 'border-concrete-200';
  const dayNumber = Number(day.date.slice(8));
  return (
    <button
      type="button"
      onClick={onOpen}
      aria-expanded={selected}
      aria-current={isToday ? 'date' : undefined}
      className={`w-full rounded-xl border p-2 text-left ${tone} ${edge} ${compact ? 'min-h-24' : 'p-3'}`}
    >
      <span className={`block font-semibold ${isPast ? 'text-concrete-700' : 'text-ink'} ${compact ? 'text-sm' : ''}`}>
        {compact ? <span aria-hidden="true">{dayNumber}</span> : null}
        <span className={compact ? 'sr-only' : ''}>{formatLongDate(day.date)}</span>
        {isToday ? <span className="ml-2 rounded-full bg-accent-50 px-2 py-0.5 text-xs text-accent-800">Today</span> : null}
      </span>
      {day.closed ? (
        <span className="mt-1 block text-sm font-semibold text-concrete-700">Closed{day.reason ? `: ${day.reason}` : ''}</span>
      ) : (
        <span className="mt-1 block text-sm text-concrete-700">
          {day.booked} of {day.capacity} patches
          {day.booked > 0 ? <span className="block text-xs">{day.paid} paid{day.unpaid ? `, ${day.unpaid} unpaid` : ''}</span> : null}
        </span>
      )}
      {!day.closed && day.closedRegions?.length ? (
        <span className="mt-1 block text-xs text-concrete-700">Weather: {day.closedRegions.join(', ')} closed</span>
      ) : null}
      {chance !== null ? (
        <span
          className={`mt-1 inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${atRisk ? 'bg-danger-50 text-danger-600' : 'bg-concrete-50 text-concrete-700'}`}
        >
          Rain {chance}%{atRisk ? ' · work at risk' : ''}
        </span>
      ) : null}
    </button>
  );
}
