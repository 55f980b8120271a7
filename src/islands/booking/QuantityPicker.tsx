import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import {
  BUSINESS_PATCHES,
  CUSTOM_MIN_PATCHES,
  EXTRA_PATCH_PENCE,
  STARTER_PATCHES,
  computeBasePricePence,
  formatPounds,
} from '../../domain/pricing.ts';
import { MOST_POPULAR_LABEL } from '../../content/plan-labels.ts';
import { normalizeCustomInput, type QuantityTile } from '../../domain/quantity.ts';
import { $isCustom, $values, activeTile, chooseTile, digitsOnly, quantityFromCustomDraft, setField } from './booking-store.ts';
import { FieldError, INPUT_CLASS, LABEL_CLASS, HINT_CLASS, controlId, describedBy } from './Field.tsx';

// Section 4, "Patch Quantity" (public-site.md §2, §4): tiles 5 and 10, a Custom tile, and the
// custom number input. Pins on the map move the quantity too (booking-store.ts).

const TILES: { tile: QuantityTile; title: string; price: string; note?: string }[] = [
  { tile: '5', title: `${STARTER_PATCHES} patches`, price: formatPounds(computeBasePricePence(STARTER_PATCHES)) },
  {
    tile: '10',
    title: `${BUSINESS_PATCHES} patches`,
    price: formatPounds(computeBasePricePence(BUSINESS_PATCHES)),
    note: MOST_POPULAR_LABEL,
  },
  { tile: 'custom', title: 'Custom', price: `${CUSTOM_MIN_PATCHES}+ patches`, note: `${formatPounds(EXTRA_PATCH_PENCE)} per extra patch` },
];

export function tileControlId(tile: QuantityTile): string {
  return controlId(`quantity-${tile}`);
}

export function QuantityPicker({ error }: { error?: string }) {
  const { quantity } = useStore($values);
  const isCustom = useStore($isCustom);
  const active = activeTile({ quantity, isCustom });
  const [draft, setDraft] = useState(quantity);
  const [note, setNote] = useState('');

  // Follow changes made elsewhere (a tile, the map) unless the draft already means the same count.
  useEffect(() => {
    setDraft((current) => (quantityFromCustomDraft(current, '') === quantity ? current : quantity));
  }, [quantity]);

  function onDraftChange(text: string) {
    const digits = digitsOnly(text);
    setDraft(digits);
    setNote('');
    setField('quantity', quantityFromCustomDraft(digits, quantity));
  }

  function onDraftBlur() {
    const committed = quantityFromCustomDraft(draft, quantity);
    if (normalizeCustomInput(draft) === null) {
      setNote(`Custom orders start at ${CUSTOM_MIN_PATCHES} patches, so the quantity stays at ${committed}.`);
    }
    setDraft(committed);
  }

  const customName = 'quantity';
  const hint = `Enter ${CUSTOM_MIN_PATCHES} or more. Each patch above ${BUSINESS_PATCHES} adds ${formatPounds(EXTRA_PATCH_PENCE)}.`;

  return (
    <div>
      <p id="booking-quantity-help" className="text-concrete-700">
        Choose a pack, or a custom number of patches. The minimum order is {STARTER_PATCHES} patches. Pins on the map
        set this for you: up to {STARTER_PATCHES} locations is {STARTER_PATCHES} patches, up to {BUSINESS_PATCHES} is{' '}
        {BUSINESS_PATCHES}, more is one patch per location.
      </p>
      {!isCustom && <FieldError name={customName} error={error} />}
      <div
        role="radiogroup"
        aria-labelledby="booking-section-4"
        aria-describedby={['booking-quantity-help', error && !isCustom ? 'booking-quantity-error' : null].filter(Boolean).join(' ')}
        className="mt-4 grid grid-cols-1 gap-3 sm:grid-cols-3"
      >
        {TILES.map(({ tile, title, price, note: tileNote }) => {
          const isChecked = active === tile;
          return (
            <label
              key={tile}
              className={`relative flex min-h-11 cursor-pointer items-start gap-3 rounded-2xl border-2 p-4 transition-colors ${
                isChecked ? 'border-ink bg-accent-50' : 'border-concrete-200 bg-white hover:border-concrete-400'
              }`}
            >
              <input
                type="radio"
                name="quantity-tile"
                id={tileControlId(tile)}
                value={tile}
                checked={isChecked}
                onChange={() => chooseTile(tile)}
                className="mt-1 size-5 shrink-0 accent-ink"
              />
              <span className="flex flex-col">
                <span className="text-lg font-semibold">{title}</span>
                <span className="text-concrete-700">{price}</span>
                {tileNote && (
                  <span className={`mt-1 text-sm ${tile === '10' ? 'font-semibold text-accent-700' : 'text-concrete-600'}`}>{tileNote}</span>
                )}
              </span>
            </label>
          );
        })}
      </div>

      {isCustom && (
        <div className="mt-5 max-w-xs">
          <label htmlFor={controlId(customName)} className={LABEL_CLASS}>
            Number of patches
          </label>
          <p id={`booking-${customName}-hint`} className={HINT_CLASS}>
            {hint}
          </p>
          <FieldError name={customName} error={error} />
          <input
            {...describedBy(customName, { hasHint: true, error })}
            type="text"
            inputMode="numeric"
            autoComplete="off"
            value={draft}
            onChange={(event) => onDraftChange(event.target.value)}
            onBlur={onDraftBlur}
            className={`${INPUT_CLASS} mt-2`}
          />
          <p className="mt-2 text-sm text-concrete-700" role="status">
            {note}
          </p>
        </div>
      )}
    </div>
  );
}
