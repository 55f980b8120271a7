import { Field, INPUT_CLASS } from './Field.tsx';

// Section 2 of the booking form: the preferred date, between the first bookable day and the end of
// the booking horizon (set after hydration, so the HTML never carries a stale build-day date).

interface DateFieldProps {
  value: string;
  min?: string;
  max?: string;
  error?: string;
  onChange: (date: string) => void;
}

export function DateField({ value, min, max, error, onChange }: DateFieldProps) {
  return (
    <Field
      name="preferredDate"
      label="Preferred date"
      hint="Bookings are available from 1 July. Fully booked dates cannot be chosen."
      error={error}
      className="max-w-sm"
    >
      {(control) => (
        <input
          {...control}
          type="date"
          className={INPUT_CLASS}
          min={min}
          max={max}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}
