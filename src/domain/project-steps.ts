// Project steps and statuses: admin-dashboard.md section 4 and the customer timeframes of
// admin-dashboard.md section 9 / public-site.md section 9.

export const TOTAL_PROJECT_STEPS = 5;

export const BOOKING_STATUSES = ['pending', 'confirmed', 'completed', 'cancelled'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

export const PROGRESS_STATUSES = [
  'consultation',
  'stencil_creation',
  'installation_scheduled',
  'installation_complete',
  'completed',
] as const;
export type ProgressStatus = (typeof PROGRESS_STATUSES)[number];

/**
 * Every status a person reads, in words: the tracking page, the dashboard, e-mails and the CSV
 * export all go through statusLabel, so no stored code such as 'installation_scheduled' shows.
 */
export const STATUS_LABELS: Readonly<Record<BookingStatus | ProgressStatus, string>> = {
  pending: 'Pending',
  confirmed: 'Confirmed',
  completed: 'Completed',
  cancelled: 'Cancelled',
  consultation: 'Design consultation',
  stencil_creation: 'Stencil creation',
  installation_scheduled: 'Installation scheduled',
  installation_complete: 'Installation complete',
};

/** The words for a status code; a code the map does not know yet is still shown as words. */
export function statusLabel(status: string): string {
  const known = (STATUS_LABELS as Record<string, string | undefined>)[status];
  if (known) return known;
  const words = status.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export type StepNumber = 1 | 2 | 3 | 4 | 5;
export type StepDateField =
  | 'consultationDate'
  | 'stencilApprovedDate'
  | 'installationDate'
  | 'completionDate';
export type StepState = 'completed' | 'current' | 'pending';

export interface ProjectStep {
  step: StepNumber;
  name: string;
  buttonLabel: string;
  status: ProgressStatus;
  /** The booking date stamped when the step is reached; step 3 stamps none. */
  dateField: StepDateField | null;
  timeframe: string;
  description: string;
}

export const PROJECT_STEPS: readonly ProjectStep[] = [
  {
    step: 1,
    name: 'Design Consultation',
    buttonLabel: 'Consult',
    status: 'consultation',
    dateField: 'consultationDate',
    timeframe: 'Within 24 hours',
    description: 'We contact you to talk through your artwork, locations and campaign goals.',
  },
  {
    step: 2,
    name: 'Stencil Creation',
    buttonLabel: 'Stencil',
    status: 'stencil_creation',
    dateField: 'stencilApprovedDate',
    timeframe: '2-3 business days',
    description: 'We turn your design into a precision stencil and send it to you for approval.',
  },
  {
    step: 3,
    name: 'Installation Scheduling',
    buttonLabel: 'Schedule',
    status: 'installation_scheduled',
    dateField: null,
    timeframe: '3-5 business days',
    description: 'We plan the route and confirm the installation slot for each location.',
  },
  {
    step: 4,
    name: 'On-Site Installation',
    buttonLabel: 'Install',
    status: 'installation_complete',
    dateField: 'installationDate',
    timeframe: 'On your booked date',
    description: 'Our crew cleans your design into the pavement using water only.',
  },
  {
    step: 5,
    name: 'Photo Documentation',
    buttonLabel: 'Photos',
    status: 'completed',
    dateField: 'completionDate',
    timeframe: 'Same day as installation',
    description: 'We photograph every patch and share the photos with you as proof of completion.',
  },
];

export function findProjectStep(step: number): ProjectStep | undefined {
  return PROJECT_STEPS.find((projectStep) => projectStep.step === step);
}

/** Customer tracking view (public-site.md section 4, "Tracking"). */
export function stepState(step: number, currentStep: number, bookingStatus: string): StepState {
  if (bookingStatus === 'completed' || step < currentStep) return 'completed';
  if (step === currentStep) return 'current';
  return 'pending';
}

/** Admin step buttons: step 1 always, step n once the project is at step n-1 or later. */
export function canAdvanceTo(step: number, currentStep: number): boolean {
  return step === 1 || currentStep >= step - 1;
}

/** Admin view: steps at or below the current step are shown as done (admin section 4). */
export function isStepDone(step: number, currentStep: number): boolean {
  return step <= currentStep;
}

/** The note the admin progress dialog starts with: 'Updated to step N: name'. */
export function defaultProgressNote(step: ProjectStep): string {
  return `Updated to step ${step.step}: ${step.name}`;
}

/** The progress dialog's button; the last step completes the project. */
export function progressButtonLabel(step: ProjectStep): string {
  return step.step === TOTAL_PROJECT_STEPS ? 'Complete Project' : 'Update Progress';
}
