import { lazy } from 'react';
import { WORK_TYPES } from '../../domain/pricing.ts';
import { chooseTile, setField, type FormValues } from './booking-store.ts';

// What the booking form loads after the page: the field checks and the confirmation screen (on
// first focus), and what was typed before it hydrated.

// The confirmation screen shows after a successful submit; it comes with the checks.
const loadConfirmation = () => import('./BookingConfirmation.tsx');
export const BookingConfirmation = lazy(() => loadConfirmation().then((module) => ({ default: module.BookingConfirmation })));

type Validation = typeof import('./form-validation.ts');
let validation: Validation | undefined;
let validationLoad: Promise<Validation> | undefined;

/** The field checks once they have loaded, else undefined. */
export function loadedValidation(): Validation | undefined {
  return validation;
}

/**
 * The field checks need zod, a fifth of the form's code: they load when someone first focuses the
 * form (long before they can submit it) rather than with the page. A failed load is tried again.
 */
export function loadValidation(): Promise<Validation> {
  void loadConfirmation().catch(() => {});
  validationLoad ??= import('./form-validation.ts').then(
    (module) => (validation = module),
    (error: unknown) => {
      validationLoad = undefined;
      throw error;
    },
  );
  return validationLoad;
}

const TEXT_FIELDS = ['firstName', 'lastName', 'businessName', 'email', 'phone', 'preferredDate', 'locationAddress', 'specialInstructions'] as const;

/**
 * What was typed or chosen before the form hydrated goes into the stores, so the summary, the
 * checks and the next render know it (shared/early-input.ts). The date is checked against the
 * fully booked days when their list arrives, as a restored one is.
 */
export function adoptEarlyInput(typed: Record<string, string>): void {
  for (const name of TEXT_FIELDS) if (typed[name] !== undefined) setField(name, typed[name]);
  const workType = typed.workType;
  if (workType && (WORK_TYPES as readonly string[]).includes(workType)) setField('workType', workType as FormValues['workType']);
  const tile = typed['quantity-tile'];
  if (tile === '5' || tile === '10' || tile === 'custom') chooseTile(tile);
}
