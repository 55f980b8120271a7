import type { CrewStop } from './crew-api.ts';

// What the crew reads before starting a stop: the customer's own instructions (access, timing)
// and the stencil the customer approved, so the right plate comes off the van.

export function StopDetails({ stop }: { stop: CrewStop }) {
  // A day kept on the phone from before these fields existed shows what it has.
  const instructions = stop.specialInstructions ?? null;
  const stencil = stop.stencil ?? null;
  return (
    <div className="mt-3 space-y-3 px-5">
      {instructions && (
        <section className="rounded-xl border-l-4 border-warning-700 bg-warning-50 px-4 py-3" aria-label="Customer’s instructions" data-testid="crew-instructions">
          <p className="text-xs font-semibold tracking-wide text-warning-700 uppercase" aria-hidden="true">Customer’s instructions</p>
          <p className="mt-1 break-words whitespace-pre-line text-ink">{instructions}</p>
        </section>
      )}
      <div className="flex items-start gap-3 text-sm" data-testid="crew-stencil">
        <span className="mt-0.5 shrink-0 rounded-md bg-concrete-50 px-2 py-0.5 text-xs font-semibold tracking-wide text-concrete-700 uppercase">Stencil</span>
        {stencil ? (
          <p className="min-w-0 text-concrete-800">
            <span className="block font-semibold break-all text-ink">{stencil.name}</span>
            <span className="block text-concrete-600">Version {stencil.version}, approved</span>
            {stencil.note && <span className="block break-words whitespace-pre-line">{stencil.note}</span>}
          </p>
        ) : (
          <p className="text-warning-700">No approved stencil proof yet. Ask the office which stencil to use.</p>
        )}
      </div>
    </div>
  );
}
