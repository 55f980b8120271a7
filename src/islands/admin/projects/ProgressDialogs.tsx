import { useState, type FormEvent } from 'react';
import { defaultProgressNote, progressButtonLabel, type ProjectStep } from '../../../domain/project-steps.ts';
import { LABEL_CLASS, INPUT_CLASS } from '../../booking/Field.tsx';
import { Modal } from './Modal.tsx';

const TEXTAREA_CLASS = `${INPUT_CLASS} min-h-28 resize-y`;

interface StepDialogProps {
  bookingId: number;
  step: ProjectStep | null;
  saving: boolean;
  onClose: () => void;
  /** The day the installation is planned for now, 'YYYY-MM-DD': the scheduling step offers to change it. */
  plannedDate: string;
  onSubmit: (step: ProjectStep, notes: string, installationDate?: string) => void;
}

/**
 * One of the five step buttons' dialogs (admin-dashboard.md §2): optional notes, prefilled. The
 * scheduling step also takes the installation day; a new day sends the customer an updated
 * calendar invite and moves the booking onto that day's route.
 */
export function StepDialog({ bookingId, step, saving, plannedDate, onClose, onSubmit }: StepDialogProps) {
  return (
    <Modal
      open={step !== null}
      title={step ? `Step ${step.step}: ${step.name}` : ''}
      description={step ? `Booking #${bookingId}. ${step.description}` : undefined}
      onClose={onClose}
    >
      {step && (
        <StepForm key={step.step} bookingId={bookingId} step={step} saving={saving} plannedDate={plannedDate} onClose={onClose} onSubmit={onSubmit} />
      )}
    </Modal>
  );
}

function StepForm({ bookingId, step, saving, plannedDate, onClose, onSubmit }: StepDialogProps & { step: ProjectStep }) {
  const [notes, setNotes] = useState(defaultProgressNote(step));
  const [installationDate, setInstallationDate] = useState(plannedDate);
  const isScheduling = step.status === 'installation_scheduled';
  const id = `progress-notes-${bookingId}`;
  const dateId = `installation-date-${bookingId}`;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(step, notes, isScheduling && installationDate ? installationDate : undefined);
  };
  return (
    <form onSubmit={submit}>
      {isScheduling && (
        <div className="mb-4">
          <label htmlFor={dateId} className={LABEL_CLASS}>
            Installation date
          </label>
          <p id={`${dateId}-hint`} className="mt-1 text-sm text-concrete-600">
            A new date sends the customer an updated calendar invite.
          </p>
          <input
            id={dateId}
            type="date"
            required
            aria-describedby={`${dateId}-hint`}
            className={`mt-2 ${INPUT_CLASS}`}
            value={installationDate}
            onChange={(event) => setInstallationDate(event.target.value)}
          />
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
