import { formatLongDate } from '../../domain/format.ts';
import type { TrackedBooking } from './tracking-api.ts';

// The crew's news on the customer's tracking page (api.md "Crew day"): on the way, at work or
// done, with the time. Never who, and never where the crew's phone was.

const LONDON_TIME = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit' });

const TEXT = {
  on_the_way: { title: 'Your crew is on the way', when: 'Set off at' },
  started: { title: 'Your crew is at work', when: 'Started at' },
  done: { title: 'Your patches are installed', when: 'Finished at' },
} as const;

export function CrewStatus({ crew }: { crew: TrackedBooking['crew'] }) {
  if (!crew || crew.status === 'planned') return null;
  const text = TEXT[crew.status];
  return (
    <section aria-labelledby="crew-status-heading" className="card flex items-center gap-4 border-accent-300 bg-accent-50 p-5" data-testid="crew-status">
      <span className={`size-3 shrink-0 rounded-full ${crew.status === 'done' ? 'bg-accent-600' : 'animate-pulse bg-accent-500 motion-reduce:animate-none'}`} aria-hidden="true" />
      <div>
        <h3 id="crew-status-heading" className="text-xl">
          {text.title}
        </h3>
        {crew.at && (
          <p className="text-concrete-700">
            {text.when} <time dateTime={crew.at}>{LONDON_TIME.format(new Date(crew.at))}</time> on {formatLongDate(crew.at)}
          </p>
        )}
      </div>
    </section>
  );
}
