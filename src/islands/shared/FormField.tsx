import type { ReactNode } from 'react';

// The site's field pattern (shared/design.md "Forms"): the label above the field, a hint, and the
// error in words beside it, tied to the control with aria-describedby. Ids are scoped by form
// (`<form>-<name>`, `-hint`, `-error`), so two forms on one page never clash.

export const INPUT_CLASS =
  'block w-full min-h-12 rounded-xl border border-concrete-300 bg-white px-4 py-3 text-base text-ink ' +
  'placeholder:text-concrete-500 transition-colors hover:border-concrete-500 focus-visible:border-ink ' +
  'aria-[invalid=true]:border-2 aria-[invalid=true]:border-danger-600';

export const LABEL_CLASS = 'block text-base font-semibold text-ink';
export const HINT_CLASS = 'mt-1 text-sm text-concrete-600';

export interface FieldControlProps {
  id: string;
  /** The field's name, so what was typed before hydration can be found (shared/early-input.ts) and autofill knows it. */
  name: string;
  'aria-describedby'?: string;
  'aria-invalid'?: true;
}

export const fieldId = (form: string, name: string) => `${form}-${name}`;

/** The id, name and ARIA of a control whose field may have a hint and an error. */
export function fieldControl(form: string, name: string, { hasHint, error }: { hasHint: boolean; error?: string }): FieldControlProps {
  const id = fieldId(form, name);
  const described = [hasHint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return {
    id,
    name,
    ...(described ? { 'aria-describedby': described } : {}),
    ...(error ? { 'aria-invalid': true as const } : {}),
  };
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

export function FormField({ form, name, label, hint, error, className, children }: FormFieldProps) {
  const id = fieldId(form, name);
  return (
    // data-field: the booking form scrolls a field's whole block into view on an error.
    <div className={className} data-field>
      <label htmlFor={id} className={LABEL_CLASS}>
        {label}
      </label>
      {hint && (
        <p id={`${id}-hint`} className={HINT_CLASS}>
          {hint}
        </p>
      )}
      <FormFieldError id={`${id}-error`} error={error} />
      <div className="mt-2">{children(fieldControl(form, name, { hasHint: Boolean(hint), error }))}</div>
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
