import { useState, type FormEvent } from 'react';
import { formatShortDay } from '../../../domain/format.ts';
import { defaultProgressNote, progressButtonLabel, type ProjectStep } from '../../../domain/project-steps.ts';
import { londonDate } from '../../../domain/schedule.ts';
import { LABEL_CLASS, INPUT_CLASS } from '../../shared/FormField.tsx';
import { Modal } from './Modal.tsx';

const TEXTAREA_CLASS = `${INPUT_CLASS} min-h-28 resize-y`;

interface StepDialogProps {
  bookingId: number;
  step: ProjectStep | null;
  saving: boolean;
  onClose: () => void;
  /** The day the installation is planned for now, 'YYYY-MM-DD': the scheduling step offers to change it. */
  plannedDate: string;
  /** Today in London, 'YYYY-MM-DD'; the browser's clock unless given. */
  today?: string;
  onSubmit: (step: ProjectStep, notes: string, installationDate?: string) => void;
}

/**
 * What the On-Site Installation dialog says about its date: that the day it records is not today
 * (the scheduled day is proposed, so the customer's date is never overwritten by the day the
 * button happened to be pressed), or that staff are moving it. Null when it is today's.
 */
export function installationDateNote(plannedDate: string, chosenDate: string, today: string): string | null {
  if (!chosenDate) return null;
  if (chosenDate !== plannedDate) {
    const moved = `Moves the installation from ${formatShortDay(plannedDate, today)} to ${formatShortDay(chosenDate, today)}.`;
    // installation-invites.ts: a day already past records history and sends no invite.
    return chosenDate >= today ? `${moved} The customer gets an updated calendar invite.` : moved;
  }
  return plannedDate === today ? null : `Scheduled for ${formatShortDay(plannedDate, today)} — not today.`;
}

/**
 * One of the five step buttons' dialogs (admin-dashboard.md §2): optional notes, prefilled. The
 * scheduling step also takes the installation day; a new day sends the customer an updated
 * calendar invite and moves the booking onto that day's route. The installation step proposes
 * that scheduled day and sends a date only when staff correct it.
 */
export function StepDialog({ bookingId, step, saving, plannedDate, today, onClose, onSubmit }: StepDialogProps) {
  return (
    <Modal
      open={step !== null}
      title={step ? `Step ${step.step}: ${step.name}` : ''}
      description={step ? `Booking #${bookingId}. ${step.description}` : undefined}
      onClose={onClose}
    >
      {step && (
        <StepForm
          key={step.step}
          bookingId={bookingId}
          step={step}
          saving={saving}
          plannedDate={plannedDate}
          today={today ?? londonDate(new Date())}
          onClose={onClose}
          onSubmit={onSubmit}
        />
      )}
    </Modal>
  );
}

function StepForm({ bookingId, step, saving, plannedDate, today, onClose, onSubmit }: StepDialogProps & { step: ProjectStep; today: string }) {
  const [notes, setNotes] = useState(defaultProgressNote(step));
  const [installationDate, setInstallationDate] = useState(plannedDate);
  const isScheduling = step.status === 'installation_scheduled';
  const isInstalling = step.status === 'installation_complete';
  const id = `progress-notes-${bookingId}`;
  const dateId = `installation-date-${bookingId}`;
  const note = isInstalling ? installationDateNote(plannedDate, installationDate, today) : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Step 4 sends a date only when staff changed it; the server keeps the scheduled one otherwise.
    const sendsDate = isScheduling || (isInstalling && installationDate !== plannedDate);
    onSubmit(step, notes, sendsDate && installationDate ? installationDate : undefined);
  };
  return (
    <form onSubmit={submit}>
      {(isScheduling || isInstalling) && (
        <div className="mb-4">
          <label htmlFor={dateId} className={LABEL_CLASS}>
            Installation date
          </label>
          <p id={`${dateId}-hint`} className="mt-1 text-sm text-concrete-600">
            {isScheduling
              ? 'A new date sends the customer an updated calendar invite.'
              : 'The day set at step 3, which the customer was sent. Change it only if the crew installed on another day.'}
          </p>
          <input
            id={dateId}
            type="date"
            required
            aria-describedby={isInstalling ? `${dateId}-hint ${dateId}-note` : `${dateId}-hint`}
            className={`mt-2 ${INPUT_CLASS}`}
            value={installationDate}
            onChange={(event) => setInstallationDate(event.target.value)}
          />
          {isInstalling && (
            // Always in the page, so a screen reader hears the note change as the date does.
            <div id={`${dateId}-note`} aria-live="polite">
              {note && (
                <p
                  data-testid="installation-date-note"
                  className="mt-2 rounded bg-warning-50 px-3 py-2 text-sm font-semibold text-warning-700 ring-1 ring-warning-700/30"
                >
                  {note}
                </p>
              )}
            </div>
          )}
        </div>
      )}
      <label htmlFor={id} className={LABEL_CLASS}>
        Progress notes <span className="font-normal text-concrete-600">(optional)</span>
      </label>
      <textarea id={id} className={`mt-2 ${TEXTAREA_CLASS}`} value={notes} maxLength={2000} onChange={(event) => setNotes(event.target.value)} />
      <DialogButtons saving={saving} onClose={onClose} label={progressButtonLabel(step)} />
    </form>
  );
}

interface NoteDialogProps {
  bookingId: number;
  open: boolean;
  stepLabel: string;
  saving: boolean;
  onClose: () => void;
  onSubmit: (notes: string) => void;
}

/** 'Add Note to Current Step': the add button stays disabled while the note is blank (§5). */
export function NoteDialog({ bookingId, open, stepLabel, saving, onClose, onSubmit }: NoteDialogProps) {
  return (
    <Modal open={open} title="Add Note to Current Step" description={`Booking #${bookingId}, ${stepLabel}.`} onClose={onClose}>
      <NoteForm bookingId={bookingId} saving={saving} onClose={onClose} onSubmit={onSubmit} />
    </Modal>
  );
}

function NoteForm({ bookingId, saving, onClose, onSubmit }: Omit<NoteDialogProps, 'open' | 'stepLabel'>) {
  const [notes, setNotes] = useState('');
  const id = `note-${bookingId}`;
  const isBlank = notes.trim() === '';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!isBlank) onSubmit(notes.trim());
  };
  return (
    <form onSubmit={submit}>
      <label htmlFor={id} className={LABEL_CLASS}>
        Note
      </label>
      <textarea id={id} className={`mt-2 ${TEXTAREA_CLASS}`} value={notes} maxLength={2000} onChange={(event) => setNotes(event.target.value)} />
      <DialogButtons saving={saving} onClose={onClose} label="Add Note" disabled={isBlank} />
    </form>
  );
}

function DialogButtons({ saving, onClose, label, disabled = false }: { saving: boolean; onClose: () => void; label: string; disabled?: boolean }) {
  return (
    <div className="mt-5 flex flex-wrap justify-end gap-3">
      <button type="button" className="btn-secondary" onClick={onClose}>
        Cancel
      </button>
      <button type="submit" className="btn-primary disabled:cursor-not-allowed disabled:opacity-50" disabled={saving || disabled}>
        {saving ? 'Saving…' : label}
      </button>
    </div>
  );
}
