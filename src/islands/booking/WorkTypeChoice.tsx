import { NIGHT_SURCHARGE_PER_PATCH_PENCE, WORK_TYPES, formatPounds } from '../../domain/pricing.ts';
import { WORK_TYPE_LABELS, setField } from './booking-store.ts';
import { FieldError, controlId } from './Field.tsx';

// Section 3 of the booking form: day or night work, as two large radio cards with their hours and
// what each adds to the price.

export function WorkTypeChoice({ value, error }: { value: string; error?: string }) {
  return (
    <>
    <FieldError name="workType" error={error} />
    <div
      role="radiogroup"
      aria-labelledby="booking-section-3"
      aria-describedby={error ? 'booking-workType-error' : undefined}
      className="grid gap-3 sm:grid-cols-2"
    >
      {WORK_TYPES.map((type) => {
        const label = WORK_TYPE_LABELS[type];
        const isChecked = value === type;
        return (
          <label
            key={type}
            className={`flex min-h-11 cursor-pointer items-start gap-3 rounded-2xl border-2 p-4 transition-colors ${
              isChecked ? 'border-ink bg-accent-50' : 'border-concrete-200 bg-white hover:border-concrete-400'
            }`}
          >
            <input
              type="radio"
              name="workType"
              id={controlId(`workType-${type}`)}
              value={type}
              checked={isChecked}
              onChange={() => setField('workType', type)}
              className="mt-1 size-5 shrink-0 accent-ink"
            />
            <span className="flex flex-col">
              <span className="text-lg font-semibold">
                {label.name} work <span className="font-normal text-concrete-700">{label.hours}</span>
              </span>
              <span className="text-sm text-concrete-600">
                {type === 'night'
                  ? `+${formatPounds(NIGHT_SURCHARGE_PER_PATCH_PENCE)} per patch`
                  : 'Included in the price'}
              </span>
            </span>
          </label>
        );
      })}
    </div>
    </>
  );
}
