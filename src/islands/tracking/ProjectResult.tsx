import { useEffect, useRef, type ReactNode } from 'react';
import { formatLongDate } from '../../domain/format.ts';
import { formatPounds } from '../../domain/pricing.ts';
import { PROJECT_STEPS, statusLabel, stepState, type StepState } from '../../domain/project-steps.ts';
import { ContactLines } from '../checkout/ContactLines.tsx';
import { PhotoGallery } from './PhotoGallery.tsx';
import { ProofPanel, ProofPointer, useProofs } from './ProofPanel.tsx';
import type { TrackedBooking } from './tracking-api.ts';
import { DetailRow } from '../shared/DetailRow.tsx';
import { CrewStatus } from './CrewStatus.tsx';
import { DocumentsPanel } from './DocumentsPanel.tsx';

const WORK_TYPE = { day: 'Day', night: 'Night' } as const;

/** A step's date as the page shows it (en-GB, the UK day), or null when it has none yet. */
export function stepDate(booking: TrackedBooking, field: (typeof PROJECT_STEPS)[number]['dateField']): string | null {
  const value = field ? booking[field] : null;
  return value ? formatLongDate(value) : null;
}

export function ProjectResult({ booking, onReset, publishableKey = null }: { booking: TrackedBooking; onReset: () => void; publishableKey?: string | null }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const { proofs, reload: reloadProofs } = useProofs(booking.id);

  return (
    <div className="space-y-8">
      <header className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h2 ref={heading} tabIndex={-1} className="text-3xl focus:outline-none sm:text-4xl">
            Booking #{booking.id}
          </h2>
          <p className="mt-2 text-lg text-concrete-700">
            Hello {booking.firstName}, here is where your project is.
          </p>
        </div>
        <button type="button" className="btn-secondary self-start sm:self-auto" onClick={onReset}>
          Track another project
        </button>
      </header>

      <ProofPointer proofs={proofs} />

      <CrewStatus crew={booking.crew} />

      {/* Phones read details → progress → help; wide screens put the progress beside the other two. */}
      <div className="grid gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)] lg:grid-rows-[auto_1fr] lg:items-start lg:gap-8">
        <BookingDetails booking={booking} />
        <Timeline booking={booking} />
        <HelpBox bookingId={booking.id} />
      </div>

      <ProofPanel bookingId={booking.id} proofs={proofs} reload={reloadProofs} publishableKey={publishableKey} />

      <DocumentsPanel bookingId={booking.id} currentStep={booking.currentStep} />

      <PhotoGallery bookingId={booking.id} />
    </div>
  );
}

function BookingDetails({ booking }: { booking: TrackedBooking }) {
  return (
    <section aria-labelledby="details-heading" className="card p-6 sm:p-8 lg:col-start-1 lg:row-start-1">
      <h3 id="details-heading" className="text-2xl">
        Booking details
      </h3>
      <dl className="mt-5 divide-y divide-concrete-100 border-y border-concrete-100">
        <DetailRow label="Booking ID">#{booking.id}</DetailRow>
        <DetailRow label="Name">
          {booking.firstName} {booking.lastName}
        </DetailRow>
        <DetailRow label="Patches">{booking.quantity}</DetailRow>
        <DetailRow label="Work type">{WORK_TYPE[booking.workType] ?? booking.workType}</DetailRow>
        <DetailRow label="Preferred date">{formatLongDate(booking.preferredDate)}</DetailRow>
        <DetailRow label="Total">{formatPounds(Math.round(booking.totalPrice * 100))}</DetailRow>
        <DetailRow label="Status">{statusLabel(booking.status)}</DetailRow>
      </dl>
    </section>
  );
}

const MARKER: Record<StepState, string> = {
  completed: 'bg-accent-600 text-white',
  current: 'bg-ink text-paper ring-4 ring-accent-300',
  pending: 'border-2 border-concrete-300 bg-white text-concrete-600',
};

function Timeline({ booking }: { booking: TrackedBooking }) {
  return (
    <section aria-labelledby="timeline-heading" className="card p-6 sm:p-8 lg:col-start-2 lg:row-span-2 lg:row-start-1">
      <h3 id="timeline-heading" className="text-2xl">
        Project progress
      </h3>
      <ol className="mt-6 space-y-6" data-testid="timeline">
        {PROJECT_STEPS.map((step) => {
          const state = stepState(step.step, booking.currentStep, booking.status);
          const date = stepDate(booking, step.dateField);
          return (
            <li key={step.step} className="relative flex gap-4" data-step={step.step} data-state={state}>
              {step.step < PROJECT_STEPS.length && (
                <span
                  className={`absolute top-11 bottom-[-1.25rem] left-[1.1875rem] w-0.5 ${state === 'completed' ? 'bg-accent-600' : 'bg-concrete-100'}`}
                  aria-hidden="true"
                />
              )}
              <span className={`flex size-10 shrink-0 items-center justify-center rounded-full font-semibold ${MARKER[state]}`} aria-hidden="true">
                {state === 'completed' ? <CheckIcon /> : step.step}
              </span>
              <div className="min-w-0 pt-1.5">
                <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                  <h4 className={`text-lg leading-snug ${state === 'pending' ? 'text-concrete-600' : ''}`}>
                    <span className="sr-only">Step {step.step}: </span>
                    {step.name}
                  </h4>
                  {state === 'completed' && <Badge className="bg-accent-100 text-accent-800">Completed</Badge>}
                  {state === 'current' && <Badge className="bg-ink text-paper">Current Step</Badge>}
                  {state === 'pending' && <span className="sr-only">(not started yet)</span>}
                </div>
                <p className="mt-0.5 text-sm font-semibold text-accent-700">
                  {date ? <time dateTime={booking[step.dateField!] ?? undefined}>{date}</time> : step.timeframe}
                </p>
                <p className="mt-1 text-concrete-700">{step.description}</p>
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

function Badge({ className, children }: { className: string; children: ReactNode }) {
  return <span className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-sm font-semibold ${className}`}>{children}</span>;
}

function CheckIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M5 12.5l4.5 4.5L19 7.5" />
    </svg>
  );
}

function HelpBox({ bookingId }: { bookingId: number }) {
  return (
    <section aria-labelledby="help-heading" className="card p-6 sm:p-8 lg:col-start-1 lg:row-start-2">
      <h3 id="help-heading" className="text-2xl">
        Need help?
      </h3>
      <p className="mt-2 text-concrete-700">Quote booking ID #{bookingId} and we'll help straight away.</p>
      <ContactLines />
    </section>
  );
}
