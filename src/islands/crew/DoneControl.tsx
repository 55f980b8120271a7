import { useEffect, useId, useState } from 'react';
import { CREW_UNDO_MINUTES, crewUndoEndsAt } from '../../domain/crew.ts';

// Done on a stop: asked once (a tap on the wrong card is easy with gloves on), and taken back
// from the phone for CREW_UNDO_MINUTES after (the server refuses later, with a 409 saying so).

const LONDON_TIME = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit' });

/** True until `until`, re-rendering once when it passes. */
function useBefore(until: Date | null): boolean {
  const [, setTick] = useState(0);
  const left = until ? until.getTime() - Date.now() : 0;
  useEffect(() => {
    if (!until || left <= 0) return;
    const timer = window.setTimeout(() => setTick((tick) => tick + 1), Math.min(left + 50, 2 ** 31 - 1));
    return () => window.clearTimeout(timer);
  }, [until, left]);
  return left > 0;
}

interface DoneControlProps {
  customerFirstName: string;
  isDone: boolean;
  /** When the server recorded the Done (ISO); null while the Done waits on the phone. */
  doneAt: string | null;
  photosSent: number;
  hasAfter: boolean;
  disabled: boolean;
  onDone(): void;
  onUndo(): void;
}

export function DoneControl({ customerFirstName, isDone, doneAt, photosSent, hasAfter, disabled, onDone, onUndo }: DoneControlProps) {
  const [confirming, setConfirming] = useState(false);
  const questionId = useId();
  const undoEnds = doneAt ? crewUndoEndsAt(new Date(doneAt)) : null;
  const inWindow = useBefore(undoEnds);
  // A Done still waiting to send can always be taken back: the undo follows it in the queue.
  const canUndo = isDone && (doneAt === null || inWindow);

  if (isDone) {
    const photos = photosSent === 0 ? 'No photos sent yet' : `${photosSent} photo${photosSent === 1 ? '' : 's'} sent`;
    return (
      <div className="flex items-center justify-between gap-3 rounded-xl bg-accent-50 px-4 py-3" data-testid="crew-done">
        <div className="min-w-0">
          <p className="font-semibold text-accent-800">{doneAt ? `Done at ${LONDON_TIME.format(new Date(doneAt))}` : 'Done · waiting to send'}</p>
          {/* Nobody has been told yet: the tap waits on the phone for signal. */}
          {!doneAt && <p className="text-sm text-concrete-700">Will tell the office it is done when you have signal.</p>}
          <p className="text-sm text-concrete-700">{photos}</p>
          {canUndo && (
            <p className="text-sm text-concrete-700">
              {undoEnds ? `You can undo until ${LONDON_TIME.format(undoEnds)}.` : `You can undo for ${CREW_UNDO_MINUTES} minutes.`}
            </p>
          )}
        </div>
        {canUndo && (
          <button type="button" className="btn-secondary shrink-0 px-5" disabled={disabled} onClick={onUndo}>
            Undo<span className="sr-only"> Done for {customerFirstName}&rsquo;s stop</span>
          </button>
        )}
      </div>
    );
  }

  if (confirming) {
    return (
      <div role="group" aria-labelledby={questionId} className="rounded-xl border-2 border-ink bg-white p-4" data-testid="crew-confirm-done">
        <p id={questionId} className="text-lg font-semibold">
          Mark {customerFirstName}&rsquo;s stop done?
        </p>
        <p className="mt-1 text-sm text-concrete-700">
          The office and the customer see the patches as installed. You can undo it for {CREW_UNDO_MINUTES} minutes.
        </p>
        <div className="mt-3 grid grid-cols-2 gap-3">
          <button type="button" className="btn-secondary px-3" onClick={() => setConfirming(false)}>
            Not yet
          </button>
          <button
            type="button"
            className="btn-primary px-3"
            disabled={disabled}
            // The question replaces the button the thumb was on: the answer takes its place.
            autoFocus
            onClick={() => {
              setConfirming(false);
              onDone();
            }}
          >
            Yes, it&rsquo;s done
          </button>
        </div>
      </div>
    );
  }

  return (
    <>
      <button type="button" className={hasAfter ? 'btn-accent w-full' : 'btn-secondary w-full'} disabled={disabled} onClick={() => setConfirming(true)}>
        Mark done
      </button>
      {!hasAfter && <p className="text-center text-sm text-concrete-600">Take an After photo before you mark the stop done.</p>}
    </>
  );
}
