import type { ReactNode } from 'react';

// Form building blocks for the booking form (shared/design.md "Forms"): the label above the
// field, a hint, and the error in words beside it, tied to the control with aria-describedby.

export const INPUT_CLASS =
  'block w-full min-h-12 rounded-xl border border-concrete-300 bg-white px-4 py-3 text-base text-ink ' +
  'placeholder:text-concrete-500 transition-colors hover:border-concrete-500 focus-visible:border-ink ' +
  'aria-[invalid=true]:border-2 aria-[invalid=true]:border-danger-600';

export const LABEL_CLASS = 'block text-base font-semibold text-ink';
export const HINT_CLASS = 'mt-1 text-sm text-concrete-600';

export function controlId(name: string): string {
  return `booking-${name}`;
}
export function errorId(name: string): string {
  return `booking-${name}-error`;
}
export function hintId(name: string): string {
  return `booking-${name}-hint`;
}

export interface ControlProps {
  id: string;
  /** The field's name, so what was typed before hydration can be found (shared/early-input.ts) and autofill knows it. */
  name: string;
  'aria-describedby'?: string;
  'aria-invalid'?: true;
}

/** ids and ARIA for a control with an optional hint and error. */
export function describedBy(name: string, { hasHint, error }: { hasHint: boolean; error?: string }): ControlProps {
  const ids = [hasHint ? hintId(name) : null, error ? errorId(name) : null].filter(Boolean).join(' ');
  return {
    id: controlId(name),
    name,
    ...(ids ? { 'aria-describedby': ids } : {}),
    ...(error ? { 'aria-invalid': true as const } : {}),
  };
}

export function FieldError({ name, error }: { name: string; error?: string }) {
  if (!error) return null;
  return (
    <p id={errorId(name)} className="mt-2 flex items-start gap-1.5 text-sm font-semibold text-danger-600">
      <svg className="mt-0.5 shrink-0" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" aria-hidden="true">
        <circle cx="12" cy="12" r="9.5" />
        <path d="M12 7v6M12 16.5v.5" />
      </svg>
      <span>
        <span className="sr-only">Error: </span>
        {error}
      </span>
    </p>
  );
}

export interface FieldProps {
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  className?: string;
  children: (control: ControlProps) => ReactNode;
}

export function Field({ name, label, hint, error, className, children }: FieldProps) {
  return (
    <div className={className} data-field>
      <label htmlFor={controlId(name)} className={LABEL_CLASS}>
        {label}
      </label>
      {hint && (
        <p id={hintId(name)} className={HINT_CLASS}>
          {hint}
        </p>
      )}
      <FieldError name={name} error={error} />
      <div className="mt-2">{children(describedBy(name, { hasHint: Boolean(hint), error }))}</div>
    </div>
  );
}

export function SectionHeading({ number, id, children }: { number: number; id: string; children: ReactNode }) {
  return (
    <h2 id={id} className="flex items-center gap-3 text-xl sm:text-2xl">
      <span
        className="flex size-9 shrink-0 items-center justify-center rounded-full bg-ink text-base font-bold text-paper"
        aria-hidden="true"
      >
        {number}
      </span>
      <span>
        <span className="sr-only">Section {number}: </span>
        {children}
      </span>
    </h2>
  );
}
