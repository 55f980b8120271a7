import { useState } from 'react';
import { formatLongDate } from '../../../domain/format.ts';
import { toLondonDate } from '../../../domain/schedule.ts';
import { formatPounds } from '../../../domain/pricing.ts';
import {
  canAdvanceTo,
  findProjectStep,
  isStepDone,
  PROJECT_STEPS,
  statusLabel,
  TOTAL_PROJECT_STEPS,
  type ProjectStep,
} from '../../../domain/project-steps.ts';
import { adminApi as api } from '../admin-api.ts';
import { showToast } from '../../shared/toast-store.ts';
import { PhotoManager } from './PhotoManager.tsx';
import { ProofPanel } from './ProofPanel.tsx';
import { NoteDialog, StepDialog } from './ProgressDialogs.tsx';
import type { ProgressLog, Project } from './types.ts';

const LOG_TIME = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'Europe/London',
});

const STEP_DATES = [
  ['Consultation', 'consultationDate'],
  ['Stencil approved', 'stencilApprovedDate'],
  ['Installation', 'installationDate'],
  ['Completion', 'completionDate'],
] as const;

interface ProjectCardProps {
  project: Project;
  onChanged: () => void;
}

/** One project in the Projects tab (admin-dashboard.md §2): details, steps, history, photos. */
export function ProjectCard({ project, onChanged }: ProjectCardProps) {
  const [saving, setSaving] = useState(false);
  const [openStep, setOpenStep] = useState<ProjectStep | null>(null);
  const [noteOpen, setNoteOpen] = useState(false);
  const current = findProjectStep(project.currentStep) ?? PROJECT_STEPS[0]!;
  const headingId = `project-${project.id}`;

  const updateProgress = async (step: ProjectStep, notes: string, installationDate?: string) => {
    setSaving(true);
    try {
      await api(`/api/admin/bookings/${project.id}/progress`, {
        method: 'PATCH',
        body: { currentStep: step.step, status: step.status, statusNotes: notes.trim() || undefined, installationDate },
      });
      setOpenStep(null);
      showToast({ title: 'Progress Updated', description: `Booking #${project.id} is at step ${step.step}: ${step.name}.`, variant: 'success' });
      onChanged();
    } catch (error) {
      showToast({ title: 'Update Failed', description: (error as Error).message, variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  };

  const addNote = async (notes: string) => {
    setSaving(true);
    try {
      await api(`/api/admin/bookings/${project.id}/notes`, { method: 'POST', body: { notes } });
      setNoteOpen(false);
      showToast({ title: 'Progress Updated', description: `Note added to step ${current.step}: ${current.name}.`, variant: 'success' });
      onChanged();
    } catch (error) {
      showToast({ title: 'Update Failed', description: (error as Error).message, variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  };

  const deleteLog = async (log: ProgressLog) => {
    if (!window.confirm(`Delete this progress entry (step ${log.step}: ${log.stepName})?`)) return;
    setSaving(true);
    try {
      await api(`/api/progress-logs/${log.id}`, { method: 'DELETE' });
      showToast({ title: 'Log Deleted', description: 'The progress entry was removed.', variant: 'success' });
      onChanged();
    } catch (error) {
      showToast({ title: 'Delete Failed', description: (error as Error).message, variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <article aria-labelledby={headingId} className="card p-4 sm:p-6" data-testid="project">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 id={headingId} className="text-lg">
          Booking #{project.id} - {project.firstName} {project.lastName}
          {project.isTest && (
            <span className="ml-2 inline-block rounded-full bg-warning-50 px-2 py-0.5 align-middle text-xs font-bold text-warning-700">
              TEST
            </span>
          )}
        </h3>
        <span className="rounded-full bg-accent-50 px-3 py-1 text-sm font-semibold text-accent-800">
          Step {project.currentStep} of {TOTAL_PROJECT_STEPS}
        </span>
      </div>
      <dl className="mt-2 flex flex-wrap gap-x-5 gap-y-1 text-sm text-concrete-700">
        <div className="min-w-0 break-all">
          <dt className="sr-only">Email</dt>
          <dd>{project.email}</dd>
        </div>
        <div>
          <dt className="sr-only">Quantity</dt>
          <dd>{project.quantity} patches</dd>
        </div>
        <div>
          <dt className="sr-only">Total</dt>
          <dd>{formatPounds(Math.round(project.totalPrice * 100))}</dd>
        </div>
        <div>
          <dt className="inline">Preferred date: </dt>
          <dd className="inline">{formatLongDate(project.preferredDate)}</dd>
        </div>
      </dl>

      <div className="mt-4">
        <div className="flex flex-wrap justify-between gap-2 text-sm">
          <span className="font-semibold">{statusLabel(project.status)}</span>
          <span className="text-concrete-600">{current.name}</span>
        </div>
        <div
          role="progressbar"
          aria-label={`Progress of booking #${project.id}`}
          aria-valuemin={0}
          aria-valuemax={TOTAL_PROJECT_STEPS}
          aria-valuenow={project.currentStep}
          aria-valuetext={`Step ${project.currentStep} of ${TOTAL_PROJECT_STEPS}: ${statusLabel(project.status)}`}
          className="mt-1 h-2 overflow-hidden rounded-full bg-concrete-100"
        >
          <div className="h-full rounded-full bg-accent-500" style={{ width: `${(project.currentStep / TOTAL_PROJECT_STEPS) * 100}%` }} />
        </div>
      </div>

      <div className="mt-4 rounded-xl bg-paper p-3 text-sm">
        <p className="font-semibold">Latest note</p>
        <p className="mt-1 whitespace-pre-line">{project.statusNotes || 'No notes yet.'}</p>
        <dl className="mt-2 grid grid-cols-1 gap-x-4 gap-y-1 text-concrete-700 sm:grid-cols-2">
          {STEP_DATES.map(([label, field]) => (
            <div key={field}>
              <dt className="inline">{label}: </dt>
              <dd className="inline">{project[field] ? formatLongDate(project[field]) : 'Not yet'}</dd>
            </div>
          ))}
        </dl>
      </div>

      <div className="mt-4 flex flex-wrap gap-2" role="group" aria-label={`Steps of booking #${project.id}`}>
        {PROJECT_STEPS.map((step) => {
          const done = isStepDone(step.step, project.currentStep);
          return (
            <button data-change
              key={step.step}
              type="button"
              disabled={saving || !canAdvanceTo(step.step, project.currentStep)}
              onClick={() => setOpenStep(step)}
              title={`Step ${step.step}: ${step.name}`}
              className={[
                'inline-flex min-h-11 items-center gap-1.5 rounded-full border px-4 text-sm font-semibold disabled:cursor-not-allowed disabled:opacity-45',
                done ? 'border-accent-600 bg-accent-50 text-accent-800' : 'border-concrete-300 bg-white text-ink hover:border-ink',
              ].join(' ')}
            >
              {done && (
                <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" aria-hidden="true">
                  <path d="M5 12.5l4.5 4.5L19 7.5" />
                </svg>
              )}
              {step.buttonLabel}
              {done && <span className="sr-only"> (done)</span>}
            </button>
          );
        })}
        <button data-change type="button" className="btn-secondary min-h-11 px-4 py-2 text-sm" disabled={saving} onClick={() => setNoteOpen(true)}>
          Add Note to Current Step
        </button>
      </div>

      <section aria-labelledby={`${headingId}-history`} className="mt-4">
        <h4 id={`${headingId}-history`} className="text-base">
          Progress history
        </h4>
        {project.progressLogs.length === 0 ? (
          <p className="mt-1 text-sm text-concrete-600">No progress recorded yet.</p>
        ) : (
          <ul
            className="mt-2 max-h-60 space-y-2 overflow-y-auto rounded-xl border border-concrete-100 p-2"
            tabIndex={0}
            aria-label={`Progress history of booking #${project.id}`}
          >
            {project.progressLogs.map((log) => (
              <li key={log.id} className="flex items-start justify-between gap-3 rounded-lg bg-paper p-2 text-sm" data-testid="progress-log">
                <div className="min-w-0">
                  <p className="font-semibold">
                    Step {log.step}: {log.stepName} <span className="font-normal text-concrete-600">({statusLabel(log.status)})</span>
                  </p>
                  {log.notes && <p className="break-words whitespace-pre-line">{log.notes}</p>}
                  <p className="text-concrete-600">
                    <time dateTime={log.createdAt}>{LOG_TIME.format(new Date(log.createdAt))}</time>
                    {log.author && <> · {log.author}</>}
                  </p>
                </div>
                <button data-change
                  type="button"
                  className="min-h-11 shrink-0 px-2 font-semibold text-danger-600 underline-offset-2 hover:underline disabled:opacity-50"
                  disabled={saving}
                  onClick={() => void deleteLog(log)}
                  aria-label={`Delete progress entry: step ${log.step}, ${log.notes ?? log.stepName}`}
                >
                  Delete
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>

      {/* Sign-off happens at step 2; once a proof exists its history stays on the card. */}
      {(project.currentStep === 2 || project.proof) && <ProofPanel bookingId={project.id} onChanged={onChanged} />}

      <div className="mt-4">
        <PhotoManager bookingId={project.id} currentStep={project.currentStep} photos={project.photos} onChanged={onChanged} />
      </div>

      <StepDialog
        bookingId={project.id}
        step={openStep}
        saving={saving}
        plannedDate={project.installationDate ? toLondonDate(project.installationDate) : project.preferredDate}
        onClose={() => setOpenStep(null)}
        onSubmit={(step, notes, installationDate) => void updateProgress(step, notes, installationDate)}
      />
      <NoteDialog
        bookingId={project.id}
        open={noteOpen}
        stepLabel={`step ${current.step}: ${current.name}`}
        saving={saving}
        onClose={() => setNoteOpen(false)}
        onSubmit={(notes) => void addNote(notes)}
      />
    </article>
  );
}
