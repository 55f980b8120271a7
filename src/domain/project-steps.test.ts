import { describe, it, expect } from 'vitest';
import {
  BOOKING_STATUSES,
  PROGRESS_STATUSES,
  PROJECT_STEPS,
  statusLabel,
  canAdvanceTo,
  defaultProgressNote,
  findProjectStep,
  isStepDone,
  progressButtonLabel,
  stepState,
} from './project-steps.ts';

describe('PROJECT_STEPS', () => {
  it.each([
    [1, 'Design Consultation', 'Consult', 'consultation', 'consultationDate'],
    [2, 'Stencil Creation', 'Stencil', 'stencil_creation', 'stencilApprovedDate'],
    [3, 'Installation Scheduling', 'Schedule', 'installation_scheduled', null],
    [4, 'On-Site Installation', 'Install', 'installation_complete', 'installationDate'],
    [5, 'Photo Documentation', 'Photos', 'completed', 'completionDate'],
  ])('step %i is %s (%s, %s, stamps %s)', (step, name, buttonLabel, status, dateField) => {
    expect(findProjectStep(step)).toMatchObject({ name, buttonLabel, status, dateField });
  });

  it('has five steps in order', () => {
    expect(PROJECT_STEPS.map((step) => step.step)).toEqual([1, 2, 3, 4, 5]);
  });

  it('has no step 6', () => {
    expect(findProjectStep(6)).toBeUndefined();
  });
});

describe('stepState (customer tracking)', () => {
  it.each([
    [1, 3, 'confirmed', 'completed'],
    [2, 3, 'stencil_creation', 'completed'],
    [3, 3, 'installation_scheduled', 'current'],
    [4, 3, 'pending', 'pending'],
    [5, 3, 'pending', 'pending'],
    [1, 1, 'pending', 'current'],
    [5, 5, 'confirmed', 'current'],
    [5, 5, 'completed', 'completed'],
    [4, 2, 'completed', 'completed'],
  ])('step %i with current step %i and status %s is %s', (step, current, status, expected) => {
    expect(stepState(step, current, status)).toBe(expected);
  });
});

describe('canAdvanceTo (admin step buttons)', () => {
  it.each([
    [1, 1, true],
    [2, 1, true],
    [3, 1, false],
    [1, 5, true],
    [3, 2, true],
    [5, 3, false],
    [5, 4, true],
    [4, 5, true],
  ])('step %i when the project is at step %i → %s', (step, current, expected) => {
    expect(canAdvanceTo(step, current)).toBe(expected);
  });
});

describe('isStepDone (admin)', () => {
  it.each([
    [1, 2, true],
    [2, 2, true],
    [3, 2, false],
  ])('step %i at current step %i → %s', (step, current, expected) => {
    expect(isStepDone(step, current)).toBe(expected);
  });
});

describe('progress dialog', () => {
  it.each([
    [1, 'Updated to step 1: Design Consultation', 'Update Progress'],
    [4, 'Updated to step 4: On-Site Installation', 'Update Progress'],
    [5, 'Updated to step 5: Photo Documentation', 'Complete Project'],
  ])('step %i starts with "%s" and a "%s" button', (stepNumber, note, label) => {
    const step = findProjectStep(stepNumber);
    expect(step).toBeDefined();
    if (!step) return;
    expect(defaultProgressNote(step)).toBe(note);
    expect(progressButtonLabel(step)).toBe(label);
  });
});

describe('statusLabel', () => {
  it.each([
    ['pending', 'Pending'],
    ['confirmed', 'Confirmed'],
    ['completed', 'Completed'],
    ['cancelled', 'Cancelled'],
    ['consultation', 'Design consultation'],
    ['stencil_creation', 'Stencil creation'],
    ['installation_scheduled', 'Installation scheduled'],
    ['installation_complete', 'Installation complete'],
    ['on_hold', 'On hold'],
  ])('%s → %s', (code, label) => {
    expect(statusLabel(code)).toBe(label);
  });

  it('has words for every booking and progress status', () => {
    for (const code of [...BOOKING_STATUSES, ...PROGRESS_STATUSES]) expect(statusLabel(code)).not.toMatch(/_/);
  });
});
