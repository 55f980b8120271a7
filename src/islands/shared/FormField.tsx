import type { ReactNode } from 'react';
import { HINT_CLASS, LABEL_CLASS } from '../booking/Field.tsx';

// The booking form's field pattern (label above, hint, error in words tied to the control with
// aria-describedby) for the smaller forms, with ids scoped by form so two forms never clash.

export { INPUT_CLASS } from '../booking/Field.tsx';

export interface FieldControlProps {
  id: string;
  name: string;
  'aria-describedby'?: string;
  'aria-invalid'?: true;
}

export interface FormFieldProps {
  form: string;
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  className?: string;
  children: (control: FieldControlProps) => ReactNode;
}

export const fieldId = (form: string, name: string) => `${form}-${name}`;

export function FormField({ form, name, label, hint, error, className, children }: FormFieldProps) {
  const id = fieldId(form, name);
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <div className={className}>
      <label htmlFor={id} className={LABEL_CLASS}>
        {label}
      </label>
      {hint && (
        <p id={`${id}-hint`} className={HINT_CLASS}>
          {hint}
        </p>
      )}
      <FormFieldError id={`${id}-error`} error={error} />
      <div className="mt-2">
        {children({
          id,
          name,
          ...(described ? { 'aria-describedby': described } : {}),
          ...(error ? { 'aria-invalid': true as const } : {}),
        })}
      </div>
    </div>
  );
}

export function FormFieldError({ id, error }: { id: string; error?: string }) {
  if (!error) return null;
  return (
    <p id={id} className="mt-2 flex items-start gap-1.5 text-sm font-semibold text-danger-600">
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

/** First message per field, keyed by the field's name (zod issue paths). */
export function messagesByField(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const key = String(issue.path[0] ?? '_');
    fields[key] ??= issue.message;
  }
  return fields;
}
