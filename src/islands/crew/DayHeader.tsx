import { formatLongDate } from '../../domain/format.ts';
import { londonTime } from './crew-offline.ts';

/** The top of the crew's day: whose stops, which day, how many are done, and whether it is offline. */
export function DayHeader({ workerName, date, done, total, offlineSince }: { workerName: string; date: string; done: number; total: number; offlineSince: string | null }) {
  return (
    <header className="bg-ink px-5 pt-6 pb-7 text-paper">
      <p className="text-sm font-semibold tracking-wide text-accent-300 uppercase">Crew day</p>
      <h1 className="mt-1 text-3xl">{workerName}&rsquo;s stops</h1>
      <p className="mt-1 text-concrete-100">{formatLongDate(date)}</p>
      <div className="mt-5">
        <div className="flex justify-between text-sm font-semibold">
          <span>
            {done} of {total} stop{total === 1 ? '' : 's'} done
          </span>
          {offlineSince !== null && <span className="text-accent-300" data-testid="crew-last-updated">Offline · Last updated {londonTime(offlineSince)}</span>}
        </div>
        <div
          className="mt-2 h-2 overflow-hidden rounded-full bg-concrete-800"
          role="progressbar"
          aria-label="Stops done"
          aria-valuemin={0}
          aria-valuemax={total}
          aria-valuenow={done}
        >
          <div className={`h-full rounded-full bg-accent-400 ${progressWidth(done, total)}`} />
        </div>
      </div>
    </header>
  );
}

/** The bar's width in steps of a twelfth: no style attribute (the page's CSP refuses them). */
function progressWidth(done: number, total: number): string {
  const widths = ['w-0', 'w-1/12', 'w-2/12', 'w-3/12', 'w-4/12', 'w-5/12', 'w-6/12', 'w-7/12', 'w-8/12', 'w-9/12', 'w-10/12', 'w-11/12', 'w-full'];
  return widths[total ? Math.round((done / total) * 12) : 0]!;
}

