import type { ReactNode } from 'react';
import { FormField, FormFieldError, fieldControl, fieldId, type FieldControlProps } from '../shared/FormField.tsx';

// The booking form's fields: the site's field pattern (shared/FormField.tsx) with ids under "booking-".

export { HINT_CLASS, INPUT_CLASS, LABEL_CLASS } from '../shared/FormField.tsx';
export type ControlProps = FieldControlProps;

const FORM = 'booking';

export function controlId(name: string): string {
  return fieldId(FORM, name);
}
export function errorId(name: string): string {
  return `${controlId(name)}-error`;
}
export function hintId(name: string): string {
  return `${controlId(name)}-hint`;
}

/** ids and ARIA for a control with an optional hint and error. */
export function describedBy(name: string, state: { hasHint: boolean; error?: string }): ControlProps {
  return fieldControl(FORM, name, state);
}

export function FieldError({ name, error }: { name: string; error?: string }) {
  return <FormFieldError id={errorId(name)} error={error} />;
}

export interface FieldProps {
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  className?: string;
  children: (control: ControlProps) => ReactNode;
}

export function Field(props: FieldProps) {
  return <FormField form={FORM} {...props} />;
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

/** One numbered card of the booking form, labelled by its heading. */
export function FormSection({ number, title, children }: { number: number; title: string; children: ReactNode }) {
  const id = `booking-section-${number}`;
  return (
    <section aria-labelledby={id} className="card p-5 sm:p-7">
      <SectionHeading number={number} id={id}>
        {title}
      </SectionHeading>
      <div className="mt-5">{children}</div>
    </section>
  );
}
