import type { FieldName, FormErrors, FormValues } from './booking-store.ts';
import { Field, INPUT_CLASS } from './Field.tsx';

// Section 1 of the booking form: who is booking and how to reach them, with autofill hints.

interface PersonalFieldsProps {
  values: FormValues;
  errors: FormErrors;
  change: <K extends FieldName>(name: K) => (event: { target: { value: string } }) => void;
}

export function PersonalFields({ values, errors, change }: PersonalFieldsProps) {
  return (
    <div className="grid gap-5 sm:grid-cols-2">
      <Field name="firstName" label="First name" error={errors.firstName}>
        {(control) => <input {...control} className={INPUT_CLASS} autoComplete="given-name" value={values.firstName} onChange={change('firstName')} />}
      </Field>
      <Field name="lastName" label="Last name" error={errors.lastName}>
        {(control) => <input {...control} className={INPUT_CLASS} autoComplete="family-name" value={values.lastName} onChange={change('lastName')} />}
      </Field>
      <Field name="businessName" label="Business name" error={errors.businessName} className="sm:col-span-2">
        {(control) => <input {...control} className={INPUT_CLASS} autoComplete="organization" value={values.businessName} onChange={change('businessName')} />}
      </Field>
      <Field name="email" label="Email" hint="We send your booking confirmation here." error={errors.email}>
        {(control) => (
          <input {...control} type="email" className={INPUT_CLASS} autoComplete="email" spellCheck={false} value={values.email} onChange={change('email')} />
        )}
      </Field>
      <Field name="phone" label="Phone number" hint="So the crew can reach you on the day." error={errors.phone}>
        {(control) => <input {...control} type="tel" className={INPUT_CLASS} autoComplete="tel" value={values.phone} onChange={change('phone')} />}
      </Field>
    </div>
  );
}
