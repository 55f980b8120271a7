import type { ChangeEvent } from 'react';
import { LOCATIONS_KEY, type FormErrors } from './booking-store.ts';
import { Field, INPUT_CLASS } from './Field.tsx';
import { LocationPicker } from './LocationPicker.tsx';

// Section 6 of the booking form: how to choose places, the map with its pins, the address text the
// pins write, and the crew's instructions.

interface LocationFieldsProps {
  tileUrl: string;
  attribution: string;
  errors: FormErrors;
  address: string;
  instructions: string;
  onAddressChange: (event: ChangeEvent<HTMLTextAreaElement>) => void;
  onInstructionsChange: (event: ChangeEvent<HTMLTextAreaElement>) => void;
}

export function LocationFields({ tileUrl, attribution, errors, address, instructions, onAddressChange, onInstructionsChange }: LocationFieldsProps) {
  return (
    <>
    <div className="rounded-2xl bg-accent-50 p-4 text-[0.95rem] text-concrete-800">
      <p className="font-semibold text-ink">How to choose your locations</p>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        <li>Add a pin for each place you would like a patch: search above the map, click the map, or move the map and add a pin at its centre.</li>
        <li>The minimum order is 5 patches, so up to 5 locations are covered by the 5-patch pack.</li>
        <li>Pick busy, naturally dirty pavements; sealed or freshly cleaned paving will not show the design.</li>
      </ul>
    </div>
    <div className="mt-5">
      <LocationPicker tileUrl={tileUrl} attribution={attribution} error={errors[LOCATIONS_KEY]} />
    </div>
    <div className="mt-6 grid gap-5">
      <Field
        name="locationAddress"
        label="Location address"
        hint="Filled in from your pins, and rewritten whenever you add, move or remove one. Put directions for the crew in Special instructions."
        error={errors.locationAddress}
      >
        {(control) => (
          <textarea {...control} rows={3} className={INPUT_CLASS} value={address} onChange={onAddressChange} />
        )}
      </Field>
      <Field
        name="specialInstructions"
        label="Special instructions (optional)"
        hint="Directions to the spot, access, timing, or anything else the crew should know."
        error={errors.specialInstructions}
      >
        {(control) => (
          <textarea {...control} rows={4} className={INPUT_CLASS} value={instructions} onChange={onInstructionsChange} />
        )}
      </Field>
    </div>
    </>
  );
}
